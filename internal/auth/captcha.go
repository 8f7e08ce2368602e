package auth

import (
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// MemoryCaptcha keeps captcha answers in process for five minutes, one use each.
type MemoryCaptcha struct {
	mu      sync.Mutex
	answers map[string]captchaEntry
}

type captchaEntry struct {
	answer  string
	expires time.Time
}

// CaptchaTTL is how long a captcha answer is kept.
const CaptchaTTL = 5 * time.Minute

// NewMemoryCaptcha builds the in-process store.
func NewMemoryCaptcha() *MemoryCaptcha {
	return &MemoryCaptcha{answers: map[string]captchaEntry{}}
}

// New draws a captcha and remembers its answer.
func (m *MemoryCaptcha) New() (string, string, error) {
	answer, image, err := drawCaptcha()
	if err != nil {
		return "", "", err
	}
	key := uuid.NewString()
	m.mu.Lock()
	now := time.Now()
	for k, e := range m.answers {
		if now.After(e.expires) {
			delete(m.answers, k)
		}
	}
	m.answers[key] = captchaEntry{answer: answer, expires: now.Add(CaptchaTTL)}
	m.mu.Unlock()
	return key, image, nil
}

// Verify checks an answer case-insensitively and forgets the key either way.
func (m *MemoryCaptcha) Verify(key, answer string) bool {
	if key == "" || answer == "" {
		return false
	}
	m.mu.Lock()
	e, ok := m.answers[key]
	delete(m.answers, key)
	m.mu.Unlock()
	return ok && time.Now().Before(e.expires) && strings.EqualFold(strings.TrimSpace(answer), e.answer)
}

// Peek returns the answer without consuming it (tests only drive the real flow through it).
func (m *MemoryCaptcha) Peek(key string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.answers[key].answer
}
