package auth

import (
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/mojocn/base64Captcha"
)

// MemoryCaptcha keeps captcha answers in process for five minutes, one use each.
type MemoryCaptcha struct {
	mu      sync.Mutex
	answers map[string]captchaEntry
	driver  base64Captcha.Driver
}

type captchaEntry struct {
	answer  string
	expires time.Time
}

// CaptchaTTL is how long a captcha answer is kept.
const CaptchaTTL = 5 * time.Minute

// NewMemoryCaptcha builds the in-process store.
func NewMemoryCaptcha() *MemoryCaptcha {
	return &MemoryCaptcha{answers: map[string]captchaEntry{}, driver: captchaDriver()}
}

// captchaDriver draws the captchas of both stores (this one and RedisCaptcha).
func captchaDriver() base64Captcha.Driver {
	return base64Captcha.NewDriverString(48, 130, 2, base64Captcha.OptionShowHollowLine, 4, "abcdefghjkmnpqrstuvwxyz23456789", nil, nil, nil)
}

// drawCaptcha draws one captcha: its answer and its image as a data URL.
func drawCaptcha(d base64Captcha.Driver) (answer, image string, err error) {
	_, content, answer := d.GenerateIdQuestionAnswer()
	item, err := d.DrawCaptcha(content)
	if err != nil {
		return "", "", err
	}
	return answer, item.EncodeB64string(), nil
}

// New draws a captcha and remembers its answer.
func (m *MemoryCaptcha) New() (string, string, error) {
	answer, image, err := drawCaptcha(m.driver)
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
