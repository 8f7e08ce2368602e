package website

import (
	"context"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// Path is where every admin route of the area sits, as BladeX puts them.
const Path = "/website/client/"

// bladeNames are BladeX's names of the list and remove routes of the
// website client (GET select, POST delete); submit keeps its name.
var bladeNames = map[string]string{"list": "select", "remove": "delete"}

// Resources are the area's declared resources.
type Resources struct {
	Employee *resource.Resource[Employee]
	News     *resource.Resource[News]
	Case     *resource.Resource[Case]
	Video    *resource.Resource[Video]
	Job      *resource.Resource[Job]
	Customer *resource.Resource[Customer]
	User     *resource.Resource[User]
	Message  *resource.Resource[Message]
}

// spec is the declaration every website resource shares: tenant rows under
// /api/website/client/<name>, ordered as the website shows them.
func spec(name, menuCode string, label i18n.Text, table string) resource.Spec {
	return resource.Spec{
		Service: "website", Name: name, Table: table, Label: label, MenuCode: menuCode,
		URLPath: Path + name, RouteNames: bladeNames, DefaultOrder: "sort ASC, id DESC",
	}
}

func (s *Service) declare() *Resources {
	changed := func(context.Context) { s.cache.invalidate() }
	res := &Resources{}
	res.Employee = resource.New(spec("employee", "team_member", i18n.T("团队成员", "Team member"), "bb_website_employee"),
		resource.Hooks[Employee]{Changed: changed})
	news := spec("news", "news", i18n.T("新闻", "News item"), "bb_website_news")
	news.DefaultOrder = "sort ASC, publish_time DESC, id DESC"
	res.News = resource.New(news, resource.Hooks[News]{Changed: changed})
	res.Case = resource.New(spec("cases", "cases", i18n.T("案例", "Case"), "bb_website_case"),
		resource.Hooks[Case]{Changed: changed})
	res.Video = resource.New(spec("video", "training_videos", i18n.T("培训视频", "Training video"), "bb_website_video"),
		resource.Hooks[Video]{Changed: changed})
	res.Job = resource.New(spec("job", "offers", i18n.T("招聘职位", "Job opening"), "bb_website_job"),
		resource.Hooks[Job]{Changed: changed})
	res.Customer = resource.New(spec("customer", "website_customer", i18n.T("网站客户", "Website customer"), "bb_website_customer"),
		resource.Hooks[Customer]{Changed: changed})
	user := spec("user", "website_user", i18n.T("网站用户", "Website user"), "bb_website_user")
	user.DefaultOrder, user.Unique = "id DESC", [][]string{{"account"}}
	res.User = resource.New(user, resource.Hooks[User]{})
	message := spec("message", "message", i18n.T("应聘留言", "Application"), "bb_website_message")
	message.DefaultOrder = "id DESC"
	res.Message = resource.New(message, resource.Hooks[Message]{})
	return res
}

// all lists the resources in mount order.
func (r *Resources) all() []resource.Registered {
	return []resource.Registered{r.Employee, r.News, r.Case, r.Video, r.Job, r.Customer, r.User, r.Message}
}

// Mount routes the admin resources and the public endpoints and returns
// the resources for the registry.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	s.env = env
	s.Res = s.declare()
	for _, res := range s.Res.all() {
		res.Mount(r, env)
	}
	s.mountPublic(r)
	return s.Res.all()
}
