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
	check := func(ref auth.TokenRef) auth.SharedAnswer {
		t.Helper()
		a, err := s.Check(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if err := s.RevokeToken(ctx, "j1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, "gone", -time.Second); err != nil {
		t.Fatal(err)
	}
	if !check(auth.TokenRef{JTI: "j1"}).Revoked {
		t.Fatal("j1 not revoked")
	}
	if check(auth.TokenRef{JTI: "gone"}).Revoked || mr.Exists("bluebird:revoked:jti:gone") {
		t.Fatal("an expired token is remembered")
	}
	if ttl := mr.TTL("bluebird:revoked:jti:j1"); ttl <= 59*time.Minute || ttl > time.Hour {
		t.Fatalf("jti ttl %v", ttl)
	}
	// a session is revoked under its own key, and only a token that names it is refused
	if err := s.RevokeToken(ctx, "s:sess1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if !check(auth.TokenRef{JTI: "j9", SessionID: "sess1"}).Revoked || check(auth.TokenRef{JTI: "j9", SessionID: "sess2"}).Revoked {
		t.Fatal("session revocation")
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
	if got := check(auth.TokenRef{JTI: "j2", UserID: uid}); got.Revoked || !got.RevokedBefore.Equal(t1) {
		t.Fatalf("revoked before %+v, want %v", got, t1)
	}
	if ttl := mr.TTL("bluebird:revoked:user:42"); ttl < 365*24*time.Hour {
		t.Fatalf("user ttl %v", ttl)
	}
	if got := check(auth.TokenRef{JTI: "j2", UserID: 7}); got.Revoked || !got.RevokedBefore.IsZero() {
		t.Fatalf("unknown user: %+v", got)
	}
	// a server that cannot answer is an error (Revocations then asks the database)
	mr.Close()
	if _, err := s.Check(ctx, auth.TokenRef{JTI: "j1", UserID: uid}); err == nil {
		t.Fatal("check without a server must fail")
	}
}

// Generations move on with every change, never repeat (a forgotten key starts
// from the clock, not from 0), and the one-trip check reads them.
func TestRedisGenerations(t *testing.T) {
	ctx := context.Background()
	mr, r := miniRedis(t)
	s := auth.NewRedisRevocations(r)
	const uid = wire.ID(42)
	if u, tn, err := s.Generations(ctx, uid, "123456"); err != nil || u != 0 || tn != 0 {
		t.Fatalf("never changed: %d %d %v", u, tn, err)
	}
	seen := map[int64]bool{}
	for range 3 {
		if err := s.Bump(ctx, []wire.ID{uid}, []string{"123456"}); err != nil {
			t.Fatal(err)
		}
		u, tn, err := s.Generations(ctx, uid, "123456")
		if err != nil || u <= 0 || tn <= 0 || seen[u] {
			t.Fatalf("after a bump: %d %d %v (seen %v)", u, tn, err, seen)
		}
		seen[u] = true
		a, err := s.Check(ctx, auth.TokenRef{JTI: "j", UserID: uid, TenantID: "123456"})
		if err != nil || a.UserGen != u || a.TenantGen != tn {
			t.Fatalf("check reads %+v %v, want %d %d", a, err, u, tn)
		}
	}
	if ttl := mr.TTL("bluebird:gen:user:42"); ttl < 365*24*time.Hour {
		t.Fatalf("generation ttl %v", ttl)
	}
	// a value ahead of the clock still moves on
	mr.Set("bluebird:gen:tenant:123456", "99999999999999999")
	if err := s.Bump(ctx, nil, []string{"123456"}); err != nil {
		t.Fatal(err)
	}
	if _, tn, _ := s.Generations(ctx, uid, "123456"); tn != 100000000000000000 {
		t.Fatalf("bump past the clock: %d", tn)
	}
	forgotten, _, _ := s.Generations(ctx, uid, "x")
	mr.Del("bluebird:gen:user:42")
	if err := s.Bump(ctx, []wire.ID{uid}, nil); err != nil {
		t.Fatal(err)
	}
	if u, _, _ := s.Generations(ctx, uid, "x"); seen[u] || u == forgotten {
		t.Fatalf("a forgotten generation came back: %d", u)
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
