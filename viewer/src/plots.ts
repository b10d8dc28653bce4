// Small time plots for the side panels: step lines (a variable or a queue
// over a short window) or min/max bands (whole-run bins), with a cursor at
// the current time.

export interface StepSeries {
  label: string;
  color: string;
  /** (time, value) changes, in time order; the value holds until the next. */
  steps: [number, number][];
}

export interface BandSeries {
  label: string;
  color: string;
  t0: number;
  binS: number;
  low: ArrayLike<number>;
  high: ArrayLike<number>;
}

export type Series = ({ kind: 'steps' } & StepSeries) | ({ kind: 'band' } & BandSeries);

export interface Plot {
  title: string;
  unit: string;
  series: Series[];
  /** Said in the plot when it has no series. */
  empty: string;
  from: number;
  to: number;
  cursor: number;
}

/** A round step of about (span / 4). */
function tickStep(span: number): number {
  const raw = span / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export function formatNumber(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e9) return `${+(x / 1e9).toPrecision(3)}G`;
  if (a >= 1e6) return `${+(x / 1e6).toPrecision(3)}M`;
  if (a >= 1e4) return `${+(x / 1e3).toPrecision(3)}k`;
  return String(+x.toPrecision(4));
}

export function drawPlot(canvas: HTMLCanvasElement, plot: Plot): void {
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const { width, height } = canvas;
  const dpr = window.devicePixelRatio || 1;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  const left = 44 * dpr;
  const right = 8 * dpr;
  const top = 18 * dpr;
  const bottom = 18 * dpr;
  const w = width - left - right;
  const h = height - top - bottom;
  let ymax = 0;
  for (const s of plot.series) {
    if (s.kind === 'steps') {
      for (const [t, v] of s.steps) if (t <= plot.to && v > ymax) ymax = v;
    } else {
      for (let i = 0; i < s.high.length; i++) {
        const t = s.t0 + i * s.binS;
        if (t + s.binS >= plot.from && t <= plot.to && s.high[i] > ymax) ymax = s.high[i];
      }
    }
  }
  ymax = ymax > 0 ? ymax * 1.1 : 1;
  const span = Math.max(1e-12, plot.to - plot.from);
  const X = (t: number) => left + ((t - plot.from) / span) * w;
  const Y = (v: number) => top + h - (v / ymax) * h;
  ctx.font = `${11 * dpr}px sans-serif`;
  ctx.fillStyle = '#222';
  ctx.textAlign = 'left';
  ctx.fillText(`${plot.title}${plot.unit ? ` (${plot.unit})` : ''}`, left, 12 * dpr);
  ctx.strokeStyle = '#ddd';
  ctx.lineWidth = 1;
  ctx.fillStyle = '#666';
  ctx.textAlign = 'right';
  const ys = tickStep(ymax);
  for (let v = 0; v <= ymax; v += ys) {
    ctx.beginPath();
    ctx.moveTo(left, Y(v));
    ctx.lineTo(left + w, Y(v));
    ctx.stroke();
    ctx.fillText(formatNumber(v), left - 4 * dpr, Y(v) + 4 * dpr);
  }
  ctx.textAlign = 'center';
  const xs = tickStep(span);
  for (let t = Math.ceil(plot.from / xs) * xs; t <= plot.to; t += xs) {
    ctx.fillText(formatNumber(+t.toPrecision(10)), X(t), height - 4 * dpr);
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, w, h);
  ctx.clip();
  for (const s of plot.series) {
    ctx.strokeStyle = s.color;
    ctx.fillStyle = s.color;
    ctx.lineWidth = 1.5 * dpr;
    if (s.kind === 'steps') {
      ctx.beginPath();
      let last: number | null = null;
      for (const [t, v] of s.steps) {
        if (last === null) ctx.moveTo(X(Math.max(t, plot.from)), Y(v));
        else ctx.lineTo(X(t), Y(last));
        ctx.lineTo(X(t), Y(v));
        last = v;
      }
      if (last !== null) ctx.lineTo(X(plot.to), Y(last));
      ctx.stroke();
    } else {
      ctx.globalAlpha = 0.35;
      for (let i = 0; i < s.high.length; i++) {
        const t = s.t0 + i * s.binS;
        if (t + s.binS < plot.from || t > plot.to || Number.isNaN(s.high[i])) continue;
        const lo = Number.isNaN(s.low[i]) ? s.high[i] : s.low[i];
        const x0 = X(t);
        const x1 = Math.max(x0 + 1, X(t + s.binS));
        ctx.fillRect(x0, Y(s.high[i]), x1 - x0, Math.max(1, Y(lo) - Y(s.high[i])));
      }
      ctx.globalAlpha = 1;
    }
  }
  ctx.restore();
  if (plot.series.length === 0) {
    ctx.fillStyle = '#888';
    ctx.textAlign = 'center';
    ctx.fillText(plot.empty, left + w / 2, top + h / 2);
  }
  // Legend and cursor.
  ctx.textAlign = 'right';
  plot.series.forEach((s, i) => {
    ctx.fillStyle = s.color;
    ctx.fillText(s.label, left + w, top + (12 + 12 * i) * dpr);
  });
  ctx.strokeStyle = '#000';
  ctx.lineWidth = dpr;
  ctx.beginPath();
  ctx.moveTo(X(plot.cursor), top);
  ctx.lineTo(X(plot.cursor), top + h);
  ctx.stroke();
}
