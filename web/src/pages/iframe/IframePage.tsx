import { Empty } from 'antd';

/** Embedded external page: /myiframe/{routerPath}?src=<url>. */
export default function IframePage({ query }: { routePath: string; query: Record<string, string> }) {
  const src = query.src;
  if (!src || !/^(https?:\/\/|\/)/i.test(src)) return <Empty />;
  return <iframe className="bb-iframe" title={query.name ?? src} src={src} style={{ width: '100%', height: 'calc(100vh - 150px)', border: 0 }} />;
}
