import ReactEChartsCore from 'echarts-for-react/esm/core';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsOption } from 'echarts';

// Only what the dashboard and the reports (web/src/report) draw; this module (and echarts) loads with those pages only.
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export default function Chart({ option, height = 320 }: { option: EChartsOption; height?: number }) {
  return <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height }} />;
}
