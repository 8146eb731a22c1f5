export interface DayCount {
  day: string;
  answers: number;
}

const WIDTH = 720;
const HEIGHT = 300;
const PADDING = { top: 36, right: 16, bottom: 40, left: 44 };

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A bar chart of one count per day, as a self-contained SVG document. */
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
    return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}" rx="2" fill="#6d4aff"><title>${day.day}: ${day.answers}</title></rect>`;
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
      return `<line x1="${PADDING.left}" x2="${WIDTH - PADDING.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#8884" /><text x="${PADDING.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${value}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(title)}" font-family="system-ui, sans-serif" font-size="12" fill="#667">
<rect width="100%" height="100%" fill="#fff" rx="12"/>
<text x="${PADDING.left}" y="22" font-size="15" font-weight="600" fill="#223">${escapeXml(title)}</text>
${grid}${bars.join('')}${labels}
</svg>`;
}
