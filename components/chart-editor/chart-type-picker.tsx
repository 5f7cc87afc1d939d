'use client';
// The picker of chart types as small pictures, for pointer users. The "Chart type" select beside it is
// the accessible control (keyboard, screen readers): these buttons are hidden from both.
import { CHART_KINDS } from '@/lib/shared/figures/chart-kinds';

const ICONS: Record<string, React.ReactNode> = {
  line: <polyline points="3,19 9,11 14,14 21,5" />,
  scatter: (
    <>
      <circle cx="6" cy="16" r="1.6" />
      <circle cx="10" cy="10" r="1.6" />
      <circle cx="15" cy="13" r="1.6" />
      <circle cx="19" cy="6" r="1.6" />
    </>
  ),
  bar: <path d="M4 20V12M7 20V8M12 20V14M15 20V6M20 20V10" />,
  'stacked-bar': <path d="M5 20V9M5 14h0M11 20V5M17 20V11" />,
  area: <path d="M3 20L9 11l5 3 7-9v15z" />,
  pie: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M12 12V4M12 12l6 5" />
    </>
  ),
  donut: (
    <>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="3.5" />
    </>
  ),
  histogram: <path d="M3 20V14h4V8h4V5h4v7h4v8z" />,
  box: <path d="M12 3v4M12 17v4M7 7h10v10H7zM7 12h10" />,
  heatmap: <path d="M4 4h16v16H4zM4 9.3h16M4 14.6h16M9.3 4v16M14.6 4v16" />,
  bubble: (
    <>
      <circle cx="7" cy="15" r="3" />
      <circle cx="15" cy="9" r="4.5" />
      <circle cx="18" cy="18" r="1.8" />
    </>
  ),
  'map-points': (
    <>
      <path d="M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2z" />
      <circle cx="12" cy="11" r="1.6" />
    </>
  ),
  'map-regions': <path d="M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2zM9 4v14M15 6v14" />,
  scatter3d: (
    <>
      <path d="M4 18l6-4V4M10 14l10 3" />
      <circle cx="15" cy="8" r="1.5" />
      <circle cx="8" cy="9" r="1.5" />
    </>
  ),
  surface: <path d="M3 15c3-6 6-6 9-2s6 4 9-2M3 15l4 5h14l-0-8" />,
  candlestick: <path d="M6 3v18M4 7h4v8H4zM14 5v14M12 9h4v5h-4zM20 8v10" />,
};

export function ChartTypePicker({ value, onPick }: { value: string | null; onPick: (id: string) => void }) {
  return (
    <div className="chart-type-picker" aria-hidden="true">
      {CHART_KINDS.map((kind) => (
        <button
          key={kind.id}
          type="button"
          tabIndex={-1}
          className={kind.id === value ? 'chart-type-icon chosen' : 'chart-type-icon'}
          title={kind.label}
          onClick={() => onPick(kind.id)}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="28"
            height="28"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            {ICONS[kind.id]}
          </svg>
          <span>{kind.label}</span>
        </button>
      ))}
    </div>
  );
}
