package files

import (
	"net/http"
	"strings"
	"time"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/httpx"
)

// recordDownload wraps w so that, once the file is sent, the download is
// told to s.Downloads (the goods-download monitor): who (the signed-in
// caller, if any; the file's tenant in any case), which file, bytes, status
// and time. Only GETs of files sent as attachments count: an image shown
// inline in a page (an avatar) is not a download, and HEAD sends nothing.
func (s *Service) recordDownload(w http.ResponseWriter, r *http.Request, key, name string) (http.ResponseWriter, func()) {
	if s.Downloads == nil || r.Method != http.MethodGet {
		return w, func() {}
	}
	start := time.Now()
	rec := &httpx.StatusRecorder{ResponseWriter: w}
	return rec, func() {
		status := rec.Status
		if status == 0 {
			status = http.StatusOK
		}
		tenant, _, _ := strings.Cut(key, "/") // keys start with their tenant (save); the signature vouches for the key
		s.Downloads.RecordDownload(r.Context(), audit.Download{Kind: audit.File, Target: key, FileName: name,
			Bytes: int64(rec.Bytes), Status: status, Elapsed: time.Since(start), TenantID: tenant})
	}
}
