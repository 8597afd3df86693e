// @ts-check
// The move review's graph: the chance over the game (an estimate from the cards the player
// could see, docs/rules.md#the-move-review), with the graded moves marked. Drawn as SVG;
// a mark is a button to its step.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 120;
const PAD = 6;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Element[]} children
 */
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/**
 * The graph of `points` (step, share; null: not sure) over `steps`, with `marks` (graded
 * moves) that call `go(step)` when clicked or pressed.
 * @param {{step: number, share: number | null}[]} points
 * @param {{step: number, grade: string}[]} marks
 * @param {number} steps
 * @param {(step: number) => void} go
 */
export function chanceGraph(points, marks, steps, go) {
  const x = (/** @type {number} */ step) => PAD + ((WIDTH - 2 * PAD) * step) / Math.max(steps, 1);
  const y = (/** @type {number} */ share) => PAD + (HEIGHT - 2 * PAD) * (1 - share);
  // A line through the points with a share; a gap where none was decided.
  /** @type {string[]} */
  const runs = [];
  let run = '';
  for (const p of points) {
    if (p.share === null) {
      if (run) runs.push(run);
      run = '';
      continue;
    }
    run += `${run ? 'L' : 'M'}${x(p.step).toFixed(1)},${y(p.share).toFixed(1)}`;
  }
  if (run) runs.push(run);
  const share = new Map(points.map((p) => [p.step, p.share]));
  // Every position with a share is a point too (a line of one point draws nothing).
  const known = points.flatMap((p) => (p.share === null ? []
    : [svg('circle', { cx: x(p.step), cy: y(p.share), r: 2.5, class: 'point' })]));
  const dots = marks.map((m) => {
    const at = share.get(m.step);
    const dot = svg('circle', {
      cx: x(m.step), cy: y(at ?? 0.5), r: 5, class: `grade-mark ${m.grade}`,
      tabindex: 0, role: 'button', 'aria-label': `Step ${m.step}: ${m.grade}`,
    }, svg('title', {}));
    /** @type {Element} */ (dot.firstChild).textContent = `Step ${m.step}: ${m.grade}`;
    dot.addEventListener('click', () => go(m.step));
    dot.addEventListener('keydown', (e) => {
      const key = /** @type {KeyboardEvent} */ (e).key;
      if (key === 'Enter' || key === ' ') {
        e.preventDefault();
        go(m.step);
      }
    });
    return dot;
  });
  const graph = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chance-graph', role: 'group',
    'aria-label': 'The chance to win over the game, as the cards in view showed it',
  },
  svg('line', { x1: PAD, x2: WIDTH - PAD, y1: y(0.5), y2: y(0.5), class: 'half' }),
  ...runs.map((d) => svg('path', { d, class: 'chance' })),
  ...known,
  ...dots);
  return graph;
}
