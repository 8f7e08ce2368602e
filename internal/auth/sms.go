package auth

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/sms"
)

// SMS login codes: six digits, valid SMSCodeTTL, one use, burnt after
// SMSMaxTries wrong answers, at most one per phone every SMSResendInterval.
// They live in memory as HMACs under a per-process key, or, when several
// instances run behind a balancer, in a shared SMSStore (Redis) under a key
// every instance derives from the server secret (UseStore).
const (
	SMSCodeTTL        = 5 * time.Minute
	SMSResendInterval = 60 * time.Second
	SMSMaxTries       = 5
	// SMSPerIP is how many sends one client address may make per
	// SMSResendInterval, whatever the phones: login codes and the
	// administrators' send-message share it.
	SMSPerIP = 10
	// smsMaxPending bounds the memory of outstanding codes.
	smsMaxPending = 100_000
)

var (
	phonePattern = regexp.MustCompile(`^[0-9]{11}$`)

	errPhoneMissing = httpx.BadRequest(i18n.T("请输入手机号码", "Please enter the phone number"))
	errPhoneFormat  = httpx.BadRequest(i18n.T("请输入正确的11位手机号码", "Please enter a valid 11-digit phone number"))
	errSMSTooSoon   = &httpx.Error{Status: 429, Msg: i18n.T("短信验证码发送过于频繁,请稍后再试", "An SMS code was sent to this phone a moment ago; try again later")}
	errSMSTooMany   = &httpx.Error{Status: 429, Msg: i18n.T("您的网络地址发送短信过于频繁,请稍后再试", "Too many SMS requests from your network address; try again later")}
	errSMSBusy      = &httpx.Error{Status: 429, Msg: i18n.T("短信服务繁忙,请稍后再试", "The SMS service is busy; try again later")}
	errSMSSend      = &httpx.Error{Status: 502, Msg: i18n.T("短信发送失败,请稍后再试", "The SMS could not be sent; try again later")}
	errSMSTenant    = httpx.BadRequest(errNoTenant.Description)
	msgSMSSent      = i18n.T("发送成功", "Sent")
)

// SMSCodes sends login codes and implements CodeStore.
type SMSCodes struct {
	Users    Users
	Platform Platform

	mu       sync.Mutex
	provider sms.Provider
	key      []byte
	codes    map[string]*smsCode  // tenant \x00 phone → the live code
	lastSent map[string]time.Time // phone or address slot → last send
	now      func() time.Time
	store    SMSStore // shared store when set (UseStore); codes and lastSent stay unused
}

// --- shared store (Redis, see redis.go) ---

// SMSStore keeps the live codes and the resend marks where every instance
// sees them. Codes are stored as HMACs; expiry is the store's.
type SMSStore interface {
	// Reserve marks a send to phone for interval; "" when one is already marked.
	Reserve(ctx context.Context, phone string, interval time.Duration) (mark string, err error)
	// Release removes the mark Reserve returned (the send failed).
	Release(ctx context.Context, phone, mark string)
	// Put stores the code of key, replacing an older one.
	Put(ctx context.Context, key string, hash []byte, ttl time.Duration) error
	// Check uses the code up when hash matches; a mismatch counts a try and
	// the code is burnt after maxTries. Atomic across instances.
	Check(ctx context.Context, key string, hash []byte, maxTries int) (bool, error)
}

// UseStore moves the codes to a shared store. key signs them and must be the
// same on every instance (DeriveKey of the server secret). Call it before serving.
func (c *SMSCodes) UseStore(s SMSStore, key []byte) { c.store, c.key = s, key }

func smsStoreKey(tenantID, phone string) string { return tenantID + ":" + phone }

// --- end shared store ---

type smsCode struct {
	key     string
	hash    []byte
	expires time.Time
	tries   int
}

// NewSMSCodes builds the code store around a provider (sms.LogProvider by default).
func NewSMSCodes(users Users, platform Platform, provider sms.Provider) *SMSCodes {
	if provider == nil {
		provider = sms.LogProvider{}
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &SMSCodes{Users: users, Platform: platform, provider: provider, key: key,
		codes: map[string]*smsCode{}, lastSent: map[string]time.Time{}, now: time.Now}
}

// SetProvider swaps the SMS provider (configuration changes, tests).
func (c *SMSCodes) SetProvider(p sms.Provider) {
	c.mu.Lock()
	c.provider = p
	c.mu.Unlock()
}

// Mount adds POST oauth/sms/send (public: isPublic lets oauth/sms/* through).
func (c *SMSCodes) Mount(r chi.Router) {
	r.Post("/blade-auth/oauth/sms/send", httpx.Handle(c.handleSend))
}

func (c *SMSCodes) hash(tenantID, phone, code string) []byte {
	m := hmac.New(sha256.New, c.key)
	fmt.Fprintf(m, "%s\x00%s\x00%s", tenantID, phone, code)
	return m.Sum(nil)
}

// sweep drops expired codes and send marks; the caller holds mu.
func (c *SMSCodes) sweep(now time.Time) {
	for k, e := range c.codes {
		if now.After(e.expires) {
			delete(c.codes, k)
		}
	}
	for p, t := range c.lastSent {
		if now.Sub(t) >= SMSResendInterval {
			delete(c.lastSent, p)
		}
	}
}

// SMSSent is the answer of oauth/sms/send.
type SMSSent struct {
	Key       string `json:"key"`
	ExpiresIn int    `json:"expiresIn"`
}

func (c *SMSCodes) handleSend(r *http.Request) (any, error) {
	q := r.URL.Query()
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if err := r.ParseForm(); err == nil {
			for k, v := range r.PostForm {
				if q.Get(k) == "" {
					q[k] = v
				}
			}
		}
	}
	tenantID := firstNonEmpty(strings.TrimSpace(q.Get("tenantId")), r.Header.Get("Tenant-Id"), "000000")
	key, err := c.Send(r.Context(), tenantID, strings.TrimSpace(q.Get("phone")), httpx.ClientIP(r))
	if err != nil {
		return nil, err
	}
	return httpx.Raw{Status: 200, Body: httpx.Envelope{Code: 200, Success: true, Msg: msgSMSSent.In(i18n.FromRequest(r)),
		Data: SMSSent{Key: key, ExpiresIn: int(SMSCodeTTL / time.Second)}}}, nil
}

// Send issues a code for a phone of a tenant and sends it. The answer is the
// same whether or not the phone belongs to a user of the tenant, but a code is
// only sent (and paid for) when it does: nobody can make the console text
// arbitrary numbers, and the endpoint tells nothing about who is registered.
func (c *SMSCodes) Send(ctx context.Context, tenantID, phone, ip string) (string, error) {
	if phone == "" {
		return "", errPhoneMissing
	}
	if !phonePattern.MatchString(phone) {
		return "", errPhoneFormat
	}
	t, err := c.Platform.Tenant(ctx, tenantID)
	if err != nil {
		return "", err
	}
	if t == nil {
		return "", errSMSTenant
	}
	c.mu.Lock()
	busy := c.store == nil && len(c.codes) >= smsMaxPending
	provider := c.provider
	c.mu.Unlock()
	if busy {
		return "", errSMSBusy
	}
	// reserved before sending: a concurrent second request waits its turn
	release, err := c.Throttle(ctx, ip, phone)
	if err != nil {
		return "", err
	}
	now := c.now()

	key := uuid.NewString()
	acc, err := c.Users.ByPhone(ctx, tenantID, phone)
	if err != nil {
		release()
		return "", err
	}
	if acc == nil {
		slog.InfoContext(ctx, "sms code not sent: no user with this phone", "tenant", tenantID, "phone", sms.Mask(phone))
		return key, nil
	}
	code := newCode()
	if err := provider.Send(sms.WithTenant(ctx, tenantID), phone, sms.TemplateValidate,
		map[string]string{"code": code, "minutes": fmt.Sprint(int(SMSCodeTTL / time.Minute))}); err != nil {
		slog.ErrorContext(ctx, "sms send failed", "tenant", tenantID, "phone", sms.Mask(phone), "err", err)
		release()
		return "", errSMSSend
	}
	if c.store != nil {
		if err := c.store.Put(ctx, smsStoreKey(tenantID, phone), c.hash(tenantID, phone, code), SMSCodeTTL); err != nil {
			release()
			return "", err
		}
		return key, nil
	}
	c.mu.Lock()
	c.codes[tenantID+"\x00"+phone] = &smsCode{key: key, hash: c.hash(tenantID, phone, code), expires: now.Add(SMSCodeTTL)}
	c.mu.Unlock()
	return key, nil
}

// Throttle is the SMS rate limit, for login codes and for every other
// message the console sends: one send per phone per SMSResendInterval, and
// SMSPerIP sends per client address in the same time (each a slot, marked
// like a phone). It reserves all of them or none; release gives them back
// when the message could not be sent. The marks live where the codes do:
// in memory, or in the shared store every instance sees.
func (c *SMSCodes) Throttle(ctx context.Context, ip string, phones ...string) (release func(), err error) {
	type taken struct {
		key, mark string
		at        time.Time
	}
	var held []taken
	release = func() {
		for _, h := range held {
			c.release(ctx, h.key, h.at, h.mark)
		}
	}
	for _, phone := range phones {
		mark, at, ok, err := c.reserve(ctx, phone)
		if err != nil || !ok {
			release()
			return nil, cmp.Or[error](err, errSMSTooSoon)
		}
		held = append(held, taken{phone, mark, at})
	}
	if ip == "" {
		return release, nil
	}
	for slot := range SMSPerIP {
		key := fmt.Sprintf("ip:%s#%d", ip, slot)
		mark, at, ok, err := c.reserve(ctx, key)
		if err != nil {
			release()
			return nil, err
		}
		if ok {
			held = append(held, taken{key, mark, at})
			return release, nil
		}
	}
	release()
	return nil, errSMSTooMany
}

// reserve marks one send to key (a phone, an address slot) for SMSResendInterval.
func (c *SMSCodes) reserve(ctx context.Context, key string) (mark string, at time.Time, ok bool, err error) {
	at = c.now()
	if c.store != nil {
		mark, err = c.store.Reserve(ctx, key, SMSResendInterval)
		return mark, at, err == nil && mark != "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep(at)
	if last, seen := c.lastSent[key]; seen && at.Sub(last) < SMSResendInterval {
		return "", at, false, nil
	}
	c.lastSent[key] = at
	return "", at, true, nil
}

// release undoes a send reservation after a failure.
func (c *SMSCodes) release(ctx context.Context, key string, at time.Time, mark string) {
	if c.store != nil {
		c.store.Release(ctx, key, mark)
		return
	}
	c.mu.Lock()
	if c.lastSent[key].Equal(at) {
		delete(c.lastSent, key)
	}
	c.mu.Unlock()
}

// newCode draws six uniformly random digits.
func newCode() string {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:])
		n := binary.BigEndian.Uint64(b[:])
		if n < (1<<64-1)/1_000_000*1_000_000 { // reject the biased tail
			return fmt.Sprintf("%06d", n%1_000_000)
		}
	}
}

// Verify implements CodeStore: a right code is used up; a wrong one counts
// against the code, which is burnt after SMSMaxTries.
func (c *SMSCodes) Verify(ctx context.Context, tenantID, phone, code string) bool {
	k := tenantID + "\x00" + phone
	code = strings.TrimSpace(code)
	if c.store != nil {
		ok, err := c.store.Check(ctx, smsStoreKey(tenantID, phone), c.hash(tenantID, phone, code), SMSMaxTries)
		if err != nil {
			slog.WarnContext(ctx, "sms code check failed", "tenant", tenantID, "phone", sms.Mask(phone), "err", err)
		}
		return err == nil && ok
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.codes[k]
	if !ok {
		return false
	}
	if c.now().After(e.expires) {
		delete(c.codes, k)
		return false
	}
	if hmac.Equal(e.hash, c.hash(tenantID, phone, code)) {
		delete(c.codes, k)
		return true
	}
	e.tries++
	if e.tries >= SMSMaxTries {
		delete(c.codes, k)
	}
	return false
}
