import 'server-only';
import { createHash } from 'node:crypto';

/** A deterministic avatar: the name's initial on a colour derived from its hash. */
export function avatarSvg(name: string): string {
  const hash = createHash('sha256').update(name.toLowerCase()).digest();
  const hue = Math.round((hash[0] / 255) * 360);
  const initial = (name.match(/[A-Za-z0-9]/)?.[0] ?? '?').toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${initial}"><rect width="96" height="96" rx="48" fill="hsl(${hue} 55% 45%)"/><text x="48" y="62" font-family="system-ui,sans-serif" font-size="44" font-weight="600" text-anchor="middle" fill="#fff">${initial}</text></svg>`;
}
