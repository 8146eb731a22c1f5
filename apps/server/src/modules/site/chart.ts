import { escapeHtml } from '../../lib/html.js';

export interface DayCount {
  day: string;
  answers: number;
}

const WIDTH = 720;
const HEIGHT = 280;
const PADDING = { top: 16, right: 16, bottom: 40, left: 44 };

/**
 * The web app's colours, light and dark: an image follows the colour scheme of the page that
 * shows it. The background is the page's own.
 */
const style = `text{fill:#5c5870}.grid{stroke:#e2dfee}.bar{fill:#7b62f7}
@media (prefers-color-scheme:dark){text{fill:#aaa5bd}.grid{stroke:#2f2a40}.bar{fill:#8f7bff}}`;

/**
 * A bar chart of one count per day, as a self-contained SVG document. Its title is for assistive
 * technology and tooltips; the page showing the chart shows it beside it, where a phone scrolling
 * the chart sideways does not hide it.
 */
export function dailyBarChartSvg(title: string, days: DayCount[]): string {
  const plotWidth = WIDTH - PADDING.left - PADDING.right;
  const plotHeight = HEIGHT - PADDING.top - PADDING.bottom;
  const max = Math.max(1, ...days.map((day) => day.answers));
  const step = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, step * 0.7);
  const bars = days.map((day, index) => {
    const height = (day.answers / max) * plotHeight;
    const x = PADDING.left + index * step + (step - barWidth) / 2;
    const y = PADDING.top + plotHeight - height;
    return `<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}" rx="2"><title>${day.day}: ${day.answers}</title></rect>`;
  });
  const labelEvery = Math.ceil(days.length / 6);
  const labels = days
    .map((day, index) =>
      index % labelEvery === 0
        ? `<text x="${(PADDING.left + index * step + step / 2).toFixed(1)}" y="${HEIGHT - PADDING.bottom + 18}" text-anchor="middle">${day.day.slice(5)}</text>`
        : '',
    )
    .join('');
  const gridValues = [0, Math.round(max / 2), max];
  const grid = gridValues
    .map((value) => {
      const y = PADDING.top + plotHeight - (value / max) * plotHeight;
      return `<line class="grid" x1="${PADDING.left}" x2="${WIDTH - PADDING.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" /><text x="${PADDING.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${value}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}" font-family="system-ui, sans-serif" font-size="12">
<title>${escapeHtml(title)}</title><style>${style}</style>
${grid}${bars.join('')}${labels}
</svg>`;
}
