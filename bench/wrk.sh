#!/usr/bin/env bash
# wrk.sh: drive the two hot endpoints of the real binary with wrk and report
# throughput and the server's own CPU time per request (from /proc/<pid>/stat,
# so wrk's CPU is not counted). See bench/README.md.
#
#   bench/wrk.sh                 # build bin/bluebird, 10 s per endpoint, 3 runs
#   BIN=/tmp/bb D=8 RUNS=5 bench/wrk.sh
#
# Environment: BIN (binary; built from ./cmd/bluebird when unset), D (seconds
# per run), RUNS (runs per endpoint), T/C (wrk threads/connections, default
# 2/8), USERS (users in the tenant, default 10000), ADDR (default
# 127.0.0.1:18081), ONLY (drive only the paths containing this text),
# BLUEBIRD_CPUPROFILE (passed to the server: a CPU profile of its whole run).
set -euo pipefail
cd "$(dirname "$0")/.."

D=${D:-10}
RUNS=${RUNS:-3}
T=${T:-2}
C=${C:-8}
USERS=${USERS:-10000}
ADDR=${ADDR:-127.0.0.1:18081}
ONLY=${ONLY:-}
BASIC="Basic c2FiZXI6c2FiZXJfc2VjcmV0"
HZ=$(getconf CLK_TCK)

if [[ -z "${BIN:-}" ]]; then
	BIN=bin/bluebird
	go build -o "$BIN" ./cmd/bluebird
fi

DIR=$(mktemp -d /tmp/bluebird-wrk-XXXXXX)
PID=""
cleanup() {
	if [[ -n "$PID" ]]; then
		kill -INT "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
	fi
	rm -rf "$DIR"
}
trap cleanup EXIT

# A data directory after a first start, with the users added.
go run ./bench/load -bin "$BIN" -users "$USERS" -addr "$ADDR" -prepare "$DIR"

"$BIN" serve --addr "$ADDR" --data "$DIR" >/dev/null 2>&1 &
PID=$!
for _ in $(seq 1 400); do
	curl -fs "http://$ADDR/readyz" >/dev/null 2>&1 && break
	sleep 0.05
done

ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
rss() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$PID/status"; }

sleep 2
echo "idle RSS after restart: $(rss) MB  (load average: $(cut -d' ' -f1-3 /proc/loadavg))"

MD5=$(printf admin | md5sum | cut -d' ' -f1)
TOKEN=$(curl -fs -X POST -H "Authorization: $BASIC" \
	"http://$ADDR/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=$MD5&grant_type=password&scope=all" | jq -r .access_token)
[[ -n "$TOKEN" && "$TOKEN" != null ]] || { echo "login failed" >&2; exit 1; }

for path in "/api/blade-user/page?current=1&size=10" "/api/blade-system/menu/routes"; do
	[[ -z "$ONLY" || "$path" == *"$ONLY"* ]] || continue
	url="http://$ADDR$path"
	code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: $BASIC" -H "Blade-Auth: bearer $TOKEN" "$url")
	[[ "$code" == 200 ]] || { echo "$path: HTTP $code" >&2; exit 1; }
	# warm up
	wrk -t"$T" -c"$C" -d2s -H "Authorization: $BASIC" -H "Blade-Auth: bearer $TOKEN" "$url" >/dev/null
	for run in $(seq 1 "$RUNS"); do
		load=$(cut -d' ' -f1-3 /proc/loadavg)
		t0=$(ticks)
		out=$(wrk -t"$T" -c"$C" -d"${D}s" -H "Authorization: $BASIC" -H "Blade-Auth: bearer $TOKEN" "$url")
		t1=$(ticks)
		n=$(awk '/requests in/ { print $1 }' <<<"$out")
		rps=$(awk '/^Requests\/sec/ { print $2 }' <<<"$out")
		lat=$(awk '/^    Latency/ { print $2 }' <<<"$out")
		non2xx=$(awk '/Non-2xx/ { print $5 }' <<<"$out")
		awk -v p="$path" -v r="$run" -v n="$n" -v rps="$rps" -v lat="$lat" -v dt=$((t1 - t0)) -v hz="$HZ" -v la="$load" -v bad="${non2xx:-0}" 'BEGIN {
			printf "GET %s run %d: %s req/s, server CPU %.3f ms/request, mean latency %s, non-2xx %s  (load average: %s)\n",
				p, r, rps, dt * 1000 / hz / n, lat, bad, la }'
	done
done
sleep 2
echo "RSS after load: $(rss) MB"
