package db

// PanicOutside switches the guard between panicking (the default in tests)
// and returning ErrOutsideTx (production), and returns a restore function.
func PanicOutside(on bool) (restore func()) {
	was := panicOutside
	panicOutside = on
	return func() { panicOutside = was }
}
