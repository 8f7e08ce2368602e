// Package website is the company-website content area (spec.md §1, §2, §7
// /api/website/client): the office-manage screens (team members, news,
// cases, training videos, job openings, application messages) and the
// client website's customers, users and jobs, each a declaration on the
// resource engine under BladeX's select/submit/delete names; plus the
// public side a website reads without a token (public.go): published
// content of the tenant its domain names, cached, and an application form
// that lands in the messages, behind a captcha and a per-IP rate limit.
package website

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Published is the shared publish flag and order of website content: only
// rows with isPublished = 1 (dictionary yes_no) reach the public endpoints,
// in ascending sort, newest first among equals.
type Published struct {
	IsPublished int `bun:"is_published" json:"isPublished" f:"label=是否发布|Published;dict=yes_no;default=0;search;sort"`
	Sort        int `bun:"sort" json:"sort" f:"label=排序|Sort order;min=0;default=0;sort"`
}

// Employee is a team member shown on the website (/office-manage/team-member).
type Employee struct {
	bun.BaseModel `bun:"table:bb_website_employee"`
	resource.Base
	EmployeeName string `bun:"employee_name" json:"employeeName" f:"label=姓名|Name;req;max=64;search;sort"`
	Position     string `bun:"position" json:"position" f:"label=职位|Position;max=64;search"`
	AvatarURL    string `bun:"avatar_url" json:"avatarUrl" f:"label=照片|Photo;type=image;max=500"`
	Intro        string `bun:"intro" json:"intro" f:"label=简介|Introduction;type=html;max=20000;hide"`
	Published
}

// News is a news item (/office-manage/news); Content is sanitised rich text.
type News struct {
	bun.BaseModel `bun:"table:bb_website_news"`
	resource.Base
	Title       string    `bun:"title" json:"title" f:"label=标题|Title;req;max=200;search;sort"`
	CoverURL    string    `bun:"cover_url" json:"coverUrl" f:"label=封面|Cover;type=image;max=500"`
	Summary     string    `bun:"summary" json:"summary" f:"label=摘要|Summary;max=500;hide"`
	Content     string    `bun:"content" json:"content" f:"label=内容|Content;type=html;max=200000;hide"`
	PublishTime wire.Time `bun:"publish_time" json:"publishTime" f:"label=发布日期|Publication date;type=date;default=today;sort"`
	Published
}

// Case is a customer case shown on the website (/office-manage/cases).
type Case struct {
	bun.BaseModel `bun:"table:bb_website_case"`
	resource.Base
	Title        string `bun:"title" json:"title" f:"label=标题|Title;req;max=200;search;sort"`
	CustomerName string `bun:"customer_name" json:"customerName" f:"label=客户|Customer;max=128;search"`
	CoverURL     string `bun:"cover_url" json:"coverUrl" f:"label=封面|Cover;type=image;max=500"`
	Summary      string `bun:"summary" json:"summary" f:"label=摘要|Summary;max=500;hide"`
	Content      string `bun:"content" json:"content" f:"label=内容|Content;type=html;max=200000;hide"`
	Published
}

// Video is a training video (/office-manage/training-videos): a cover image
// and the video file, both uploaded through oss (put-file?kind=video: MP4
// or WebM), links of the row's tenant only.
type Video struct {
	bun.BaseModel `bun:"table:bb_website_video"`
	resource.Base
	Title       string `bun:"title" json:"title" f:"label=标题|Title;req;max=200;search;sort"`
	CoverURL    string `bun:"cover_url" json:"coverUrl" f:"label=封面|Cover;type=image;max=500"`
	VideoURL    string `bun:"video_url" json:"videoUrl" f:"label=视频|Video;type=video;req;max=500"`
	Description string `bun:"description" json:"description" f:"label=说明|Description;type=html;max=20000;hide"`
	Published
}

// Job is a job opening (/office-manage/offers; the client website's jobs,
// /website/job, are the same rows); Requirement is sanitised rich text.
type Job struct {
	bun.BaseModel `bun:"table:bb_website_job"`
	resource.Base
	JobName     string `bun:"job_name" json:"jobName" f:"label=职位名称|Job title;req;max=128;search;sort"`
	Department  string `bun:"department" json:"department" f:"label=部门|Department;max=64;search"`
	Location    string `bun:"location" json:"location" f:"label=工作地点|Location;max=128;search"`
	Headcount   int    `bun:"headcount" json:"headcount" f:"label=招聘人数|Openings;min=0"`
	Salary      string `bun:"salary" json:"salary" f:"label=薪资|Salary;max=64"`
	Requirement string `bun:"requirement" json:"requirement" f:"label=职位要求|Requirements;type=html;max=50000;hide"`
	Published
}

// Customer is a customer of the client website (/website/customer): shown
// as a reference, with its logo, when published.
type Customer struct {
	bun.BaseModel `bun:"table:bb_website_customer"`
	resource.Base
	CustomerName string `bun:"customer_name" json:"customerName" f:"label=客户名称|Customer name;req;max=128;search;sort"`
	LogoURL      string `bun:"logo_url" json:"logoUrl" f:"label=标志|Logo;type=image;max=500"`
	ContactName  string `bun:"contact_name" json:"contactName" f:"label=联系人|Contact;max=64"`
	ContactPhone string `bun:"contact_phone" json:"contactPhone" f:"label=联系电话|Contact phone;max=32;pattern=^[+]?[0-9() -]{5,31}$"`
	Email        string `bun:"email" json:"email" f:"label=邮箱|Email;max=128;format=email"`
	SiteURL      string `bun:"site_url" json:"siteUrl" f:"label=网址|Website;max=255;format=url;hide"`
	Description  string `bun:"description" json:"description" f:"label=介绍|Description;type=html;max=2000;hide"`
	Published
}

// User is a registered user of the client website (/website/user, a
// read-only screen). The console keeps no password for it: signing in to
// the website is the website's business.
type User struct {
	bun.BaseModel `bun:"table:bb_website_user"`
	resource.Base
	Account  string `bun:"account" json:"account" f:"label=账号|Account;req;max=64;search;sort"`
	RealName string `bun:"real_name" json:"realName" f:"label=姓名|Name;max=64;search"`
	Phone    string `bun:"phone" json:"phone" f:"label=手机号码|Mobile;max=32;format=phone;search"`
	Email    string `bun:"email" json:"email" f:"label=邮箱|Email;max=128;format=email"`
	Company  string `bun:"company" json:"company" f:"label=公司|Company;max=128;search"`
	Remark   string `bun:"remark" json:"remark" f:"label=备注|Remark;max=500;hide"`
}

// Message is an application sent through the website's form
// (/office-manage/message), optionally for one job opening.
type Message struct {
	bun.BaseModel `bun:"table:bb_website_message"`
	resource.Base
	ApplicantName string  `bun:"applicant_name" json:"applicantName" f:"label=姓名|Name;req;max=64;search;sort"`
	Phone         string  `bun:"phone" json:"phone" f:"label=手机号码|Mobile;req;max=32;format=phone;search"`
	Email         string  `bun:"email" json:"email" f:"label=邮箱|Email;max=128;format=email"`
	JobID         wire.ID `bun:"job_id" json:"jobId" f:"label=应聘职位|Job;type=id;ref=website/job"`
	Content       string  `bun:"content" json:"content" f:"label=留言|Message;type=text;max=2000"`
	ClientIP      string  `bun:"client_ip" json:"clientIp" f:"label=来源IP|From IP;max=64;ro;hide"`
	IsHandled     int     `bun:"is_handled" json:"isHandled" f:"label=已处理|Handled;dict=yes_no;default=0;search"`
}
