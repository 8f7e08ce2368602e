// Package app is the composition root: it opens the database, migrates and
// seeds it, builds every area's services and resources, and routes them.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/desk"
	"github.com/bluebird/console/internal/develop"
	"github.com/bluebird/console/internal/files"
	"github.com/bluebird/console/internal/flow"
	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/logs"
	"github.com/bluebird/console/internal/monitor"
	"github.com/bluebird/console/internal/numbering"
	"github.com/bluebird/console/internal/partner"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/batch"
	"github.com/bluebird/console/internal/platform/config"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/outbound"
	"github.com/bluebird/console/internal/platform/sms"
	"github.com/bluebird/console/internal/platform/storage"
	"github.com/bluebird/console/internal/production"
	"github.com/bluebird/console/internal/report"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/seed"
	"github.com/bluebird/console/internal/smsconfig"
	"github.com/bluebird/console/internal/stock"
	"github.com/bluebird/console/internal/stockdoc"
	"github.com/bluebird/console/internal/system"
	"github.com/bluebird/console/internal/user"
	"github.com/bluebird/console/internal/website"
	"github.com/bluebird/console/migrations"
)

// App is a running console: database, services and the HTTP handler.
type App struct {
	Config   config.Config
	DB       *db.DB
	Registry *Registry
	Auth     *auth.Service
	System   *system.Service
	Scopes   *system.Scopes
	Users    *user.Service
	Files    *files.Service
	// SMS sends the console's messages through each tenant's enabled SMS configuration (internal/smsconfig).
	SMS *smsconfig.Router
	// Numbering hands out document numbers from the tenants' code rules.
	Numbering *numbering.Service
	// Approval keeps the approval records of business rows.
	Approval *approval.Service
	// Stock is the stock core (internal/stock): ledger, balances, costs, locks.
	Stock     *stock.Service
	Inventory *inventory.Service
	Website   *website.Service // company-website content and its public side (internal/website)
	// Flow is the workflow engine and blade-flow (internal/flow).
	Flow *flow.Service
	// Reports are blade-report's definitions and runs (internal/report).
	Reports *report.Service
	// Logs is blade-log: the API and usual logs, written in batches (internal/logs).
	Logs *logs.Service
	// Monitor records downloads and online time (internal/monitor).
	Monitor *monitor.Service
	Handler http.Handler
	Logger  *slog.Logger

	api     chi.Router
	metrics *prometheus.Registry
	latency *prometheus.HistogramVec
	ready   bool
	shared  *shared // scale-out: Redis and the cache invalidation bus (scaleout.go)
}

// New opens, migrates and seeds the database and builds the handler.
func New(ctx context.Context, cfg config.Config, logger *slog.Logger) (*App, error) {
	var (
		d   *db.DB
		err error
	)
	if cfg.IsPostgres() {
		d, err = db.OpenPostgres(cfg.DB)
	} else {
		d, err = db.OpenSQLite(cfg.SQLitePath())
	}
	if err != nil {
		return nil, err
	}
	a, err := NewWithDB(ctx, cfg, d, logger)
	if err != nil {
		d.Close()
		return nil, err
	}
	return a, nil
}

// NewWithDB builds the app on an open database (tests use it).
func NewWithDB(ctx context.Context, cfg config.Config, d *db.DB, logger *slog.Logger) (*App, error) {
	if logger == nil {
		logger = slog.Default()
	}
	if err := d.Migrate(ctx, migrations.FS); err != nil {
		return nil, err
	}
	if err := seed.Run(ctx, d); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	key, err := seed.SigningKey(ctx, d)
	if err != nil {
		return nil, err
	}
	signer, err := authn.NewSigner(key)
	if err != nil {
		return nil, err
	}
	// --- scale-out (scaleout.go): Redis when cfg.RedisURL is set, else in-process state ---
	sh, err := openShared(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	revoked, err := auth.LoadRevocations(ctx, d, sh.revocations())
	if err != nil {
		sh.close()
		return nil, err
	}
	// --- end scale-out ---
	allow, err := outbound.ParseAllow(cfg.OutboundAllow)
	if err != nil {
		return nil, err
	}
	tenantOutbound := &outbound.Policy{Allow: allow}
	a := &App{Config: cfg, DB: d, Registry: &Registry{}, Logger: logger}
	a.System = system.NewService(d)
	a.Scopes = &system.Scopes{DB: d}
	userDir := &user.Directory{DB: d}
	a.SMS = &smsconfig.Router{DB: d, Fallback: sms.LogProvider{Logger: logger}, Outbound: tenantOutbound}
	social := auth.NewOIDCSocial(d, userDir, a.System, auth.DeriveKey(key, "social-state"))
	social.Outbound = tenantOutbound
	a.Auth = &auth.Service{DB: d, Users: userDir, Platform: a.System, Signer: signer, Revoked: revoked,
		Captcha: auth.NewMemoryCaptcha(), ClearCache: a.clearCaches,
		// social login (OIDC per tenant) and SMS login codes: auth/social.go, auth/sms.go
		Social: social,
		SMS:    auth.NewSMSCodes(userDir, a.System, a.SMS)}
	a.Users = user.New(d, a.System, revoked)
	a.System.Users = a.Users
	a.System.Scopes = a.Scopes
	a.System.Sessions = revoked // tenant changes reach their sessions (auth/session.go)
	// --- scale-out: shared login stores, cache invalidation across instances ---
	a.shared = sh
	sh.wire(a, key)
	// --- end scale-out ---
	// --- files (internal/files): uploads on the local store, links signed with a key derived from the token key ---
	a.Files = files.New(d, storage.NewLocal(cfg.FilesRoot()), auth.DeriveKey(key, "file-link"))
	a.Files.Outbound = tenantOutbound
	a.Users.Links = a.Files
	a.Auth.Avatar = a.Files.Sign
	// --- end files ---
	// --- numbering (internal/numbering): code rules, and the default rules of every new tenant ---
	a.Numbering = numbering.New(ctx, d)
	a.System.TenantProvisioners = append(a.System.TenantProvisioners, a.Numbering.Provision)
	// --- end numbering ---
	// --- workflow (internal/flow): the built-in processes, deployed to every tenant ---
	a.Flow = flow.New(d)
	a.Flow.Buttons, a.Flow.TenantExists = a.System, a.System.TenantExists
	if err := a.Flow.Seed(ctx); err != nil {
		return nil, fmt.Errorf("seed processes: %w", err)
	}
	a.System.TenantProvisioners = append(a.System.TenantProvisioners, a.Flow.Provision)
	// --- end workflow ---
	// --- logs and monitoring (internal/logs, internal/monitor): written in batches off the request path ---
	a.Logs = logs.New(d, a.System, batch.Options{})
	a.Logs.SkipPath = func(path string) bool { return path == monitor.HeartbeatPath }
	a.Auth.Audit, a.Users.Audit, a.System.Audit = a.Logs, a.Logs, a.Logs
	a.Monitor = monitor.New(d, batch.Options{})
	a.Files.Downloads = a.Monitor
	// --- end logs and monitoring ---
	a.Handler = a.routes()
	if err := a.Reports.SeedExamples(ctx); err != nil {
		return nil, fmt.Errorf("seed reports: %w", err)
	}
	a.ready = true
	return a, nil
}

// ExtraResources are declared outside the app and mounted with its own: the
// code generator's test registers the resource it generated there (and
// nothing else sets it), so the generated code runs in a real console.
var ExtraResources []func() resource.Registered

func (a *App) clearCaches() {
	a.System.Invalidate()
	a.Scopes.Invalidate()
}

// Close releases Redis (when configured) and the database.
func (a *App) Close() error {
	_ = a.shared.close()
	_ = a.Numbering.Close()
	a.Logs.Close() // writes the queued log rows
	a.Monitor.Close()
	return a.DB.Close()
}

func (a *App) routes() http.Handler {
	a.metrics = prometheus.NewRegistry()
	a.metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	a.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "bluebird_http_request_duration_seconds", Help: "API request latency by route and status class.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"method", "route", "status"})
	a.metrics.MustRegister(a.latency)

	env := &resource.Env{DB: a.DB, Scope: a.Scopes, Refs: a.Registry, Files: a.Files, TenantExists: a.System.TenantExists,
		Numbers: a.Numbering, Buttons: a.System, Dicts: a.System, Downloads: a.Monitor}
	root := chi.NewRouter()
	root.Use(httpx.RequestIDMiddleware, httpx.Recover, db.TrackRequests)
	root.Get("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	root.Get("/readyz", a.handleReady)
	root.Handle("/metrics", promhttp.HandlerFor(a.metrics, promhttp.HandlerOpts{}))

	api := chi.NewRouter()
	a.api = api
	// CleanInput after authenticate: an anonymous caller is refused before its body is read.
	// The API log (internal/logs) times every request from the outside and notes its caller and
	// parameters once they are known and clean.
	api.Use(httpx.AccessLog(a.Logger, a.observe), a.Logs.APILog, a.limitBody, a.authenticate, httpx.CleanInput, a.Logs.Caller, a.apiScope)
	api.NotFound(httpx.Handle(func(*http.Request) (any, error) { return nil, httpx.ErrRouteNotFound }))
	api.MethodNotAllowed(httpx.Handle(func(*http.Request) (any, error) { return nil, httpx.ErrMethod }))

	a.Auth.Mount(api)
	for _, res := range a.System.Mount(api, env) {
		a.Registry.Add(res)
	}
	a.Users.Mount(api, env)
	a.Registry.Add(a.Users.Users)
	// social login, SMS codes, guest registration and social providers (auth/social.go, auth/sms.go, user/register.go)
	social := a.Auth.Social.(*auth.OIDCSocial)
	social.Mount(api)
	a.Auth.SMS.(*auth.SMSCodes).Mount(api)
	(&user.Registration{Users: a.Users, OAuth: social}).Mount(api)
	socialProviders := auth.NewProviderResource()
	socialProviders.Mount(api, env)
	a.Registry.Add(socialProviders)
	ds := develop.NewDatasource()
	ds.Mount(api, env)
	a.Registry.Add(ds)
	// blade-log: the error log and the web console's upload of its browser errors
	errorLog := logs.NewErrorLog()
	errorLog.Mount(api, env)
	a.Registry.Add(errorLog)
	a.Logs.Mount(api)
	apiLog, usualLog := a.Logs.NewAPILog(), a.Logs.NewUsualLog()
	apiLog.Mount(api, env)
	usualLog.Mount(api, env)
	a.Registry.Add(apiLog, usualLog)
	// monitor: the goods-download monitor, online durations and the console's heartbeat
	a.Monitor.Mount(api, env)
	a.Registry.Add(a.Monitor.Downloads, a.Monitor.Active)
	// --- files: oss put-file and the public signed file route (FilePrefix is in isPublic) ---
	a.Files.Mount(api)
	// blade-resource: attach and oss configurations (internal/files), SMS configurations and send-message (internal/smsconfig)
	a.Registry.Add(a.Files.MountResources(api, env)...)
	smsConfigs := smsconfig.NewResource()
	smsConfigs.Mount(api, env)
	a.Registry.Add(smsConfigs)
	(&smsconfig.Endpoint{Router: a.SMS, Throttle: a.Auth.SMS.(*auth.SMSCodes)}).Mount(api)
	// --- end files ---
	// --- business master data: approval records, inventory (internal/approval, internal/inventory) ---
	a.Approval = approval.New(a.DB)
	a.Approval.Flow = a.Flow // before the resources mount: their startProcess links to the engine then
	a.Registry.Add(a.Approval.Mount(api, env)...)
	a.Numbering.Approval = a.Approval
	a.Registry.Add(a.Numbering.Mount(api, env)...)
	a.Stock = stock.New(a.DB)
	a.Inventory = inventory.New(a.Approval)
	a.Inventory.HeldStock = a.Stock.HeldIn
	a.Registry.Add(a.Inventory.Mount(api, env)...)
	plans := production.New(a.Approval)
	a.Registry.Add(stockdoc.New(a.Approval, a.Stock, plans).Mount(api, env)...)
	a.Registry.Add(plans.Mount(api, env)...)
	// --- end business master data ---
	// --- partner (internal/partner): customers, suppliers and their material price lines ---
	a.Registry.Add(partner.New(a.Approval).Mount(api, env)...)
	// --- end partner ---
	a.Flow.Mount(api)
	// --- website (internal/website): office-manage content, the client website, the public endpoints ---
	a.Website = website.New(a.DB, a.Auth.Captcha, a.tenantOfDomain)
	a.Registry.Add(a.Website.Mount(api, env)...)
	// --- end website ---
	// --- desk (internal/desk): notices, and the home page's key figures ---
	notices := desk.NewNotices(a.DB)
	notices.Res.Mount(api, env)
	a.Registry.Add(notices.Res)
	(&desk.Summary{DB: a.DB, Buttons: a.System, Lookup: a.Registry.Get}).Mount(api)
	// --- end desk ---
	// --- code generator and reports (internal/develop, internal/report); reports summarise every resource registered above ---
	a.Registry.Add(develop.NewCode(a.DB).Mount(api, env))
	for _, extra := range ExtraResources {
		res := extra()
		res.Mount(api, env)
		a.Registry.Add(res)
	}
	a.Reports = report.New(a.DB, a.Registry)
	a.Registry.Add(a.Reports.Mount(api, env))
	// --- end code generator and reports ---

	if err := resource.CheckRefs(a.Registry.All(), a.Registry); err != nil {
		panic(err) // a declaration error, found at start-up
	}
	api.Get("/meta/resources", httpx.Handle(resource.Guard(resource.AnyUser)(a.Registry.handleMetaList)))
	api.Get("/meta/resource", httpx.Handle(resource.Guard(resource.AnyUser)(a.Registry.handleMeta)))
	api.Get("/openapi.json", a.handleOpenAPI)

	root.Mount("/api", api)
	mountWeb(root)
	return root
}

func (a *App) observe(r *http.Request, status int, d time.Duration) {
	route := "unmatched"
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
		route = rc.RoutePattern()
	}
	a.latency.WithLabelValues(r.Method, route, fmt.Sprintf("%dxx", status/100)).Observe(d.Seconds())
}

func (a *App) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if !a.ready || a.DB.PingContext(ctx) != nil || a.shared.ping(ctx) != nil {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ready"))
}

// publicPaths need no token; anything else under /api does.
var publicPaths = slices.Concat(auth.PublicPaths, []string{"/api/openapi.json", "/api/blade-system/tenant/info"},
	website.PublicPaths()) // a website's reads of published content and its application form

// tenantOfDomain is the tenant id a website's domain names, "" for none.
func (a *App) tenantOfDomain(ctx context.Context, domain string) (string, error) {
	t, err := a.System.TenantByDomain(ctx, domain)
	if err != nil || t == nil {
		return "", err
	}
	return t.TenantID, nil
}

func isPublic(path string) bool {
	return slices.Contains(publicPaths, path) || strings.HasPrefix(path, "/api/blade-auth/oauth/social/") ||
		strings.HasPrefix(path, "/api/blade-auth/oauth/sms/") || path == "/api/blade-user/register-guest" ||
		strings.HasPrefix(path, files.FilePrefix) // signed links; <img src> sends no token
}

// limitBody caps request bodies: httpx.MaxBody everywhere, the files
// service's limit of the kind uploaded for put-file, resource.ImportMaxBody
// for Excel imports.
func (a *App) limitBody(next http.Handler) http.Handler {
	normal := httpx.LimitBody(httpx.MaxBody)(next)
	imports := httpx.LimitBody(resource.ImportMaxBody)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == files.PutFilePath {
			httpx.LimitBody(a.Files.BodyLimit(r))(next).ServeHTTP(w, r)
			return
		}
		if resource.IsImportPath(r.URL.Path) {
			imports.ServeHTTP(w, r)
			return
		}
		normal.ServeHTTP(w, r)
	})
}

var errTenantMismatch = &httpx.Error{Status: 403, Msg: i18n.T("请求头中的租户与令牌不一致", "The Tenant-Id header does not match the token")}

// authenticate turns Blade-Auth into a Principal. A bad token is a 401 even
// on a public path, so that a client learns its session ended.
func (a *App) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		full := r.URL.Path
		r = r.WithContext(i18n.With(r.Context(), i18n.FromRequest(r)))
		header := r.Header.Get("Blade-Auth")
		if header == "" {
			if isPublic(full) {
				next.ServeHTTP(w, r)
				return
			}
			httpx.WriteError(w, r, httpx.ErrUnauthorized)
			return
		}
		p, err := a.Auth.Authenticate(r.Context(), header)
		if err != nil {
			if isPublic(full) && strings.HasPrefix(full, "/api/blade-auth/oauth/") {
				next.ServeHTTP(w, r) // logout or login with a stale token still works
				return
			}
			httpx.WriteError(w, r, err)
			return
		}
		if t := r.Header.Get("Tenant-Id"); t != "" && t != p.TenantID {
			httpx.WriteError(w, r, errTenantMismatch)
			return
		}
		next.ServeHTTP(w, r.WithContext(authz.With(r.Context(), p)))
	})
}

// apiScope enforces API-scope grants for callers other than administrators.
func (a *App) apiScope(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := authz.From(r.Context())
		if p == nil || p.IsTenantAdmin() {
			next.ServeHTTP(w, r)
			return
		}
		full := r.URL.Path
		if code := a.Registry.CodeForPath(full); code != "" {
			ok, err := a.Scopes.APIAllowed(r.Context(), p, code, full)
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			if !ok {
				httpx.WriteError(w, r, httpx.ErrForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
