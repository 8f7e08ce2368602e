package monitor

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Online duration from heartbeats. The web console sends a heartbeat every
// HeartbeatEvery while its tab is visible. The server keeps one row per
// user and day (UTC) and, on each heartbeat, adds the time since the user's
// previous one when that gap is at most SessionGap (two intervals: one
// late or lost beat is forgiven); a longer gap ends the session and starts
// a new one, which adds nothing until its next beat. So a user whose tab
// stays open from 09:00 to 09:05 is online 5 minutes; one who closes it
// for an hour gets no credit for that hour; two tabs of one user are not
// counted twice (their beats interleave, each gap counted once). A session
// running over midnight (UTC) starts again at the new day's first beat.
const (
	HeartbeatEvery = 60 * time.Second
	SessionGap     = 2 * HeartbeatEvery
)

// HeartbeatPath is where the console's heartbeat goes (any signed-in user).
const HeartbeatPath = "/api/log-service/heartbeat"

// UserActive is one user's online time on one day.
type UserActive struct {
	bun.BaseModel `bun:"table:blade_user_active"`
	resource.Base
	Day           string  `bun:"day" json:"day" f:"label=日期|Day;search;filter=equal;sort;max=10;ro"`
	Account       string  `bun:"account" json:"account" f:"label=账号|Account;search;sort;max=64;ro"`
	UserID        wire.ID `bun:"user_id" json:"userId" f:"label=用户ID|User ID;type=id;hide;filter=equal;ro"`
	OnlineSeconds int64   `bun:"online_seconds" json:"onlineSeconds" f:"label=在线时长(秒)|Online (s);sort;nofilter;ro"`
	Sessions      int     `bun:"sessions" json:"sessions" f:"label=会话数|Sessions;nofilter;ro"`
	FirstBeat     int64   `bun:"first_beat" json:"firstBeat" f:"label=首次心跳|First heartbeat;hide;nofilter;ro"`
	LastBeat      int64   `bun:"last_beat" json:"lastBeat" f:"label=最后心跳|Last heartbeat;hide;nofilter;ro"`
}

func (s *Service) declareActive() *resource.Resource[UserActive] {
	return resource.New(resource.Spec{
		Service: "log-service", Name: "active", Table: "blade_user_active", Label: i18n.T("在线时长", "Online duration"),
		MenuCode: "user_log", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Super,
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "day DESC, online_seconds DESC, id DESC",
	}, resource.Hooks[UserActive]{})
}

// Mount adds the monitor's routes: its resources, getUserActive and the heartbeat.
func (s *Service) Mount(r chi.Router, env *resource.Env) {
	s.Downloads.Mount(r, env)
	s.Active.Mount(r, env)
	r.Get("/log-service/active/getUserActive", httpx.Handle(resource.Guard(resource.Admin)(s.handleUserActive)))
	r.Post(strings.TrimPrefix(HeartbeatPath, "/api"), httpx.Handle(resource.Guard(resource.AnyUser)(s.handleHeartbeat)))
}

func (s *Service) handleHeartbeat(r *http.Request) (any, error) {
	return nil, s.Beat(r.Context(), authz.From(r.Context()), time.Now())
}

// Beat counts one heartbeat of p at now (see HeartbeatEvery). Each step is
// one statement, so concurrent beats of one user add each gap once.
func (s *Service) Beat(ctx context.Context, p *authz.Principal, now time.Time) error {
	day, t := now.UTC().Format(time.DateOnly), now.Unix()
	stamp := wire.Time{Time: now.UTC().Truncate(time.Second)}
	row := &UserActive{Day: day, Account: p.Account, UserID: p.UserID, FirstBeat: t, LastBeat: t, Sessions: 1}
	row.ID, row.TenantID, row.CreateUser, row.CreateDept, row.UpdateUser = db.NewID(), p.TenantID, p.UserID, p.DeptID, p.UserID
	row.CreateTime, row.UpdateTime, row.Status, row.Version = stamp, stamp, 1, 1
	res, err := s.DB.NewInsert().Model(row).On("CONFLICT (tenant_id, user_id, day) DO NOTHING").Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	gap := int64(SessionGap / time.Second)
	_, err = s.DB.NewUpdate().Table("blade_user_active").
		Set("online_seconds = online_seconds + CASE WHEN ? - last_beat BETWEEN 1 AND ? THEN ? - last_beat ELSE 0 END", t, gap, t).
		Set("sessions = sessions + CASE WHEN ? - last_beat > ? THEN 1 ELSE 0 END", t, gap).
		Set("last_beat = CASE WHEN ? > last_beat THEN ? ELSE last_beat END", t, t).
		Set("update_time = ?", stamp).
		Where("tenant_id = ? AND user_id = ? AND day = ?", p.TenantID, p.UserID, day).Exec(ctx)
	return err
}

// ActiveDay is one day of getUserActive's series: every user's online time summed.
type ActiveDay struct {
	Day           string `json:"day"`
	OnlineSeconds int64  `json:"onlineSeconds"`
	Users         int    `json:"users"`
}

// ActiveReport is getUserActive's answer: the rows (user and day) and the
// day series the chart draws, from startDay to endDay, every day present.
type ActiveReport struct {
	StartDay string       `json:"startDay"`
	EndDay   string       `json:"endDay"`
	Records  []UserActive `json:"records"`
	Days     []ActiveDay  `json:"days"`
}

// MaxActiveDays bounds one getUserActive request.
const MaxActiveDays = 366

// maxActiveRows bounds the rows of one report (users × days).
const maxActiveRows = 20000

var (
	errDayRange  = httpx.Badf("开始日期不能晚于结束日期,且最多查询366天", "The start day must not be after the end day, and at most 366 days can be asked")
	errTooMany   = httpx.Badf("数据过多,请缩小日期范围或指定账号", "Too many rows: narrow the days or name an account")
	errDayFormat = func(name string) error {
		return httpx.Badf("参数%s应为yyyy-MM-dd格式的日期", "Parameter %s must be a date as yyyy-MM-dd", name)
	}
)

// handleUserActive answers the online time per user and day in a day range
// (startDay, endDay: yyyy-MM-dd, default the last 7 days to today), of one
// account when `account` is given, within the caller's tenant (the super
// user's: every tenant, or tenantId's).
func (s *Service) handleUserActive(r *http.Request) (any, error) {
	q := r.URL.Query()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	end, err := dayParam(q.Get("endDay"), "endDay", today)
	if err != nil {
		return nil, err
	}
	start, err := dayParam(q.Get("startDay"), "startDay", end.AddDate(0, 0, -6))
	if err != nil {
		return nil, err
	}
	if start.After(end) || end.Sub(start) >= MaxActiveDays*24*time.Hour {
		return nil, errDayRange
	}
	ctx := r.Context()
	var rows []UserActive
	sq, err := s.Active.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	sq = sq.Where("day >= ? AND day <= ?", start.Format(time.DateOnly), end.Format(time.DateOnly))
	if a := strings.TrimSpace(q.Get("account")); a != "" {
		sq = sq.Where("account = ?", a)
	}
	if t := strings.TrimSpace(q.Get("tenantId")); t != "" {
		sq = sq.Where("tenant_id = ?", t) // narrows; the scope already applied stays
	}
	if err := sq.OrderExpr("day ASC, online_seconds DESC, id ASC").Limit(maxActiveRows + 1).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) > maxActiveRows {
		return nil, errTooMany
	}
	out := &ActiveReport{StartDay: start.Format(time.DateOnly), EndDay: end.Format(time.DateOnly), Records: rows}
	byDay := map[string]*ActiveDay{}
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		out.Days = append(out.Days, ActiveDay{Day: d.Format(time.DateOnly)})
	}
	for i := range out.Days {
		byDay[out.Days[i].Day] = &out.Days[i]
	}
	for _, row := range rows {
		if d := byDay[row.Day]; d != nil {
			d.OnlineSeconds += row.OnlineSeconds
			d.Users++
		}
	}
	if out.Records == nil {
		out.Records = []UserActive{}
	}
	return out, nil
}

func dayParam(v, name string, def time.Time) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return def, nil
	}
	if len(v) > 10 { // a datetime's day ("2026-11-27 00:00:00")
		v = v[:10]
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, errDayFormat(name)
	}
	return d, nil
}
