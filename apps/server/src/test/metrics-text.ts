/** The value of one series in Prometheus's text format (GET /metrics), or undefined when it is not there. */
export function metricValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
