// A tiny S3 server for the browser tests: one bucket in memory, enough of the protocol for minio-go
// (bucket check, PUT with aws-chunked streaming bodies, GET with ranges, HEAD, DELETE). It checks no
// signature, but refuses a request not signed with its access key, so the configured keys are the ones used.
import http from 'node:http';

// decodeChunked reads an aws-chunked body: "<hex size>;chunk-signature=...\r\n<data>\r\n" ... "0;...\r\n<trailers>".
function decodeChunked(buf) {
  const parts = [];
  let i = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(i, eol).toString().split(';')[0], 16);
    if (!size) break;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export async function startS3(bucket, accessKey) {
  const objects = new Map(); // key -> { body, type, modified }
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://s3');
      requests.push(`${req.method} ${url.pathname}`);
      if (!String(req.headers.authorization || '').includes(`Credential=${accessKey}/`)) {
        res.writeHead(403, { 'Content-Type': 'application/xml' });
        return res.end('<Error><Code>InvalidAccessKeyId</Code><Message>unknown key</Message></Error>');
      }
      const [, b, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      if (b !== bucket) {
        res.writeHead(404, { 'Content-Type': 'application/xml' });
        return res.end('<Error><Code>NoSuchBucket</Code><Message>no bucket</Message></Error>');
      }
      if (!key) {
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        return res.end(url.searchParams.has('location') ? '<LocationConstraint>us-east-1</LocationConstraint>' : '');
      }
      if (req.method === 'PUT') {
        let body = Buffer.concat(chunks);
        if (String(req.headers['x-amz-content-sha256'] || '').startsWith('STREAMING-')) body = decodeChunked(body);
        objects.set(key, { body, type: req.headers['content-type'] || 'application/octet-stream', modified: new Date() });
        res.writeHead(200, { ETag: `"${body.length.toString(16)}"` });
        return res.end();
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      const obj = objects.get(key);
      if (!obj) {
        res.writeHead(404, { 'Content-Type': 'application/xml' });
        return res.end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code><Message>no key</Message></Error>');
      }
      let body = obj.body;
      let status = 200;
      const headers = { 'Content-Type': obj.type, ETag: `"${obj.body.length.toString(16)}"`, 'Last-Modified': obj.modified.toUTCString(), 'Accept-Ranges': 'bytes' };
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range || ''));
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Number(range[2]) : obj.body.length - 1;
        body = obj.body.subarray(start, end + 1);
        status = 206;
        headers['Content-Range'] = `bytes ${start}-${end}/${obj.body.length}`;
      }
      headers['Content-Length'] = body.length;
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}`, objects, requests, close: () => new Promise((ok) => server.close(ok)) };
}
