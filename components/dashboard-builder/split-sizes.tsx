'use client';
// The dashboard builder's size controls: each split's width (side by side) or height (one above the
// other) of its first pane, named by the boxes that pane holds.
import { boxPaths, isClientTop, nodeAt, type Path, pathKey, splitPaths, type TreeNode, type TreeSplit } from './tree';

export function SplitSizes({ layout, labels, onSize }: { layout: TreeNode; labels: Map<string, string>; onSize: (path: Path, size: number) => void }) {
  const splits = splitPaths(layout);
  if (!splits.length) return null;
  const names = (path: Path) =>
    boxPaths(layout)
      .filter((p) => path.every((b, i) => p[i] === b))
      .map((p) => labels.get(pathKey(p)))
      .join(', ');
  return (
    <fieldset className="dashboard-sizes">
      <legend>Sizes</legend>
      {splits.map((p) => {
        const split = nodeAt(layout, p) as TreeSplit;
        const top = !p.length && isClientTop(layout);
        const px = split.sizeUnit === 'px';
        const what = top ? 'Height of the dashboard' : `${split.direction === 'horizontal' ? 'Width' : 'Height'} of ${names([...p, 'first'])}`;
        const id = `size-${pathKey(p).replace(/\./g, '-')}`;
        return (
          <div key={pathKey(p)} className="field dashboard-size">
            <label htmlFor={id}>{what}</label>
            <div className="dashboard-size-input">
              <input
                id={id}
                type="range"
                min={px ? 200 : 10}
                max={px ? Math.max(6000, split.size) : 90}
                step={px ? 50 : 5}
                value={split.size}
                onChange={(e) => onSize(p, Number(e.target.value))}
              />
              <output htmlFor={id}>{px ? `${split.size} px` : `${split.size}%`}</output>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
