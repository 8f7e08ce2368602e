package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/cache"
	"github.com/bluebird/console/internal/platform/wire"
)

// The Redis stores against miniredis; the scale-out tests in internal/app
// run them on a real server between two instances.

func miniRedis(t *testing.T) (*miniredis.Miniredis, *cache.Redis) {
	t.Helper()
	mr := miniredis.RunT(t)
	r, err := cache.Open(context.Background(), "redis://"+mr.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return mr, r
}

func TestRedisRevocations(t *testing.T) {
	ctx := context.Background()
	mr, r := miniRedis(t)
	s := auth.NewRedisRevocations(r)
	if err := s.RevokeToken(ctx, "j1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, "gone", -time.Second); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.TokenRevoked(ctx, "j1"); !ok {
		t.Fatal("j1 not revoked")
	}
	if ok, _ := s.TokenRevoked(ctx, "gone"); ok || mr.Exists("bluebird:revoked:jti:gone") {
		t.Fatal("an expired token is remembered")
	}
	if ttl := mr.TTL("bluebird:revoked:jti:j1"); ttl <= 59*time.Minute || ttl > time.Hour {
		t.Fatalf("jti ttl %v", ttl)
	}
	// per user: the later time wins, and the key expires
	const uid = wire.ID(42)
	t1 := time.Unix(2_000_000_000, 0)
	if err := s.RevokeUser(ctx, uid, t1); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeUser(ctx, uid, t1.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.UserRevokedBefore(ctx, uid); err != nil || !got.Equal(t1) {
		t.Fatalf("revoked before %v %v, want %v", got, err, t1)
	}
	if ttl := mr.TTL("bluebird:revoked:user:42"); ttl < 365*24*time.Hour {
		t.Fatalf("user ttl %v", ttl)
	}
	if got, err := s.UserRevokedBefore(ctx, 7); err != nil || !got.IsZero() {
		t.Fatalf("unknown user: %v %v", got, err)
	}
	// the one-trip check agrees
	tok, before, err := s.Check(ctx, "j1", uid)
	if err != nil || !tok || !before.Equal(t1) {
		t.Fatalf("check: %v %v %v", tok, before, err)
	}
	tok, before, err = s.Check(ctx, "j2", 7)
	if err != nil || tok || !before.IsZero() {
		t.Fatalf("check clean: %v %v %v", tok, before, err)
	}
	// a server that cannot answer is an error (Revocations then fails closed)
	mr.Close()
	if _, _, err := s.Check(ctx, "j1", uid); err == nil {
		t.Fatal("check without a server must fail")
	}
}

func TestRedisCaptcha(t *testing.T) {
	mr, r := miniRedis(t)
	c := auth.NewRedisCaptcha(r)
	key, image, err := c.New()
	if err != nil || !strings.HasPrefix(image, "data:image/png;base64,") {
		t.Fatalf("new: %v %.40s", err, image)
	}
	answer := c.Peek(key)
	if len(answer) != 4 {
		t.Fatalf("answer %q", answer)
	}
	if ttl := mr.TTL("bluebird:captcha:" + key); ttl != auth.CaptchaTTL {
		t.Fatalf("ttl %v", ttl)
	}
	if c.Verify(key, "") || c.Verify("", answer) || c.Verify(strings.Repeat("k", 100), answer) {
		t.Fatal("empty or oversized input accepted")
	}
	if !c.Verify(key, " "+strings.ToUpper(answer)+" ") {
		t.Fatal("right answer refused")
	}
	if c.Verify(key, answer) {
		t.Fatal("answer used twice")
	}
	// a wrong answer uses the key up too
	key, _, _ = c.New()
	answer = c.Peek(key)
	if c.Verify(key, "zzzz") || c.Verify(key, answer) {
		t.Fatal("a wrong answer must burn the captcha")
	}
	// and an answer expires
	key, _, _ = c.New()
	answer = c.Peek(key)
	mr.FastForward(auth.CaptchaTTL + time.Second)
	if c.Verify(key, answer) {
		t.Fatal("expired captcha accepted")
	}
}

func TestRedisSMSStore(t *testing.T) {
	ctx := context.Background()
	mr, r := miniRedis(t)
	s := auth.NewRedisSMS(r)
	mark, err := s.Reserve(ctx, "13800000000", time.Minute)
	if err != nil || mark == "" {
		t.Fatalf("reserve: %q %v", mark, err)
	}
	if again, _ := s.Reserve(ctx, "13800000000", time.Minute); again != "" {
		t.Fatal("reserved twice within the interval")
	}
	s.Release(ctx, "13800000000", "not-the-mark")
	if again, _ := s.Reserve(ctx, "13800000000", time.Minute); again != "" {
		t.Fatal("released with a foreign mark")
	}
	s.Release(ctx, "13800000000", mark)
	if again, _ := s.Reserve(ctx, "13800000000", time.Minute); again == "" {
		t.Fatal("release did not free the phone")
	}

	good, bad := []byte("good-hash"), []byte("bad-hash")
	if err := s.Put(ctx, "000000:13800000000", good, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if ok, err := s.Check(ctx, "000000:13800000000", bad, 5); ok || err != nil {
			t.Fatalf("wrong code %d: %v %v", i, ok, err)
		}
	}
	if ok, err := s.Check(ctx, "000000:13800000000", good, 5); !ok || err != nil {
		t.Fatalf("right code after 4 wrong ones: %v %v", ok, err)
	}
	if ok, _ := s.Check(ctx, "000000:13800000000", good, 5); ok {
		t.Fatal("code used twice")
	}
	// five wrong tries burn it; a new code resets the count
	_ = s.Put(ctx, "k", good, 5*time.Minute)
	for i := 0; i < 5; i++ {
		_, _ = s.Check(ctx, "k", bad, 5)
	}
	if ok, _ := s.Check(ctx, "k", good, 5); ok {
		t.Fatal("burnt code accepted")
	}
	_ = s.Put(ctx, "k", good, 5*time.Minute)
	_, _ = s.Check(ctx, "k", bad, 5)
	_ = s.Put(ctx, "k", good, 5*time.Minute)
	if n := mr.HGet("bluebird:sms:code:k", "t"); n != "0" {
		t.Fatalf("tries after a new code: %q", n)
	}
	mr.FastForward(5*time.Minute + time.Second)
	if ok, _ := s.Check(ctx, "k", good, 5); ok {
		t.Fatal("expired code accepted")
	}
}

func TestRedisNonces(t *testing.T) {
	ctx := context.Background()
	mr, r := miniRedis(t)
	n := auth.NewRedisNonces(r)
	until := time.Now().Add(10 * time.Minute)
	if ok, err := n.Use(ctx, "abc", until); !ok || err != nil {
		t.Fatalf("first use: %v %v", ok, err)
	}
	if ok, _ := n.Use(ctx, "abc", until); ok {
		t.Fatal("nonce used twice")
	}
	if ttl := mr.TTL("bluebird:social:nonce:abc"); ttl < 9*time.Minute || ttl > 10*time.Minute {
		t.Fatalf("nonce ttl %v", ttl)
	}
}
