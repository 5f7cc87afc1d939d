// Files one file is tied to (the grids a plot draws from, the plots drawing from a grid), linked when
// the visitor may read them and otherwise only counted: their names are not the visitor's to learn.
import Link from 'next/link';

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

interface Props {
  className: string;
  label: string;
  files: { href: string; name: string }[];
  /** Files not named: unreadable ones, and readable ones past those shown. */
  hidden: number;
  noun: string;
}

/** "<label> a, b and 2 other grids". */
export function LinkedFiles({ className, label, files, hidden, noun }: Props) {
  return (
    <span className={className}>
      {label}{' '}
      {files.map((f, i) => (
        <span key={f.href}>
          {i > 0 && ', '}
          <Link href={f.href}>{f.name}</Link>
        </span>
      ))}
      {hidden > 0 && (
        <span className="muted">
          {files.length ? ' and ' : ''}
          {plural(hidden, files.length ? `other ${noun}` : noun)}
        </span>
      )}
    </span>
  );
}
