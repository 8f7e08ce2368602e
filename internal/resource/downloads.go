package resource

import (
	"mime"
	"net/http"
	"time"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/httpx"
)

// recordExport streams an export through write and tells Env.Downloads
// what went out (the goods-download monitor): the resource, file name,
// rows, bytes, status and time, after the file is sent.
func (env *Env) recordExport(req *http.Request, target string, w http.ResponseWriter, write func(http.ResponseWriter) (int, error)) error {
	if env == nil || env.Downloads == nil {
		_, err := write(w)
		return err
	}
	start := time.Now()
	rec := &httpx.StatusRecorder{ResponseWriter: w}
	rows, err := write(rec)
	status := rec.Status
	switch {
	case err != nil && status == 0:
		status = http.StatusInternalServerError
	case status == 0:
		status = http.StatusOK
	}
	name := ""
	if _, params, perr := mime.ParseMediaType(rec.Header().Get("Content-Disposition")); perr == nil {
		name = params["filename"]
	}
	env.Downloads.RecordDownload(req.Context(), audit.Download{Kind: audit.Export, Target: target, FileName: name,
		Rows: rows, Bytes: int64(rec.Bytes), Status: status, Elapsed: time.Since(start)})
	return err
}
