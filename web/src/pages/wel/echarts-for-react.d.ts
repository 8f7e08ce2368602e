// The ES module build of echarts-for-react's core component (its package types cover lib/ only).
declare module 'echarts-for-react/esm/core' {
  export { default } from 'echarts-for-react/lib/core';
}
