/** Loading placeholder without antd (used by the entry chunk's Suspense). */
export default function PageSpin() {
  return (
    <div className="bb-spin-wrap" aria-busy="true">
      <span className="bb-spin" />
    </div>
  );
}
