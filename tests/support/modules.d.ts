// Types for modules the tests read that ship none: Next's own route matcher and the app's config.
declare module 'next/dist/compiled/path-to-regexp' {
  export function pathToRegexp(path: string, keys?: { name: string | number }[]): RegExp;
}

declare module '@/next.config.mjs' {
  const config: { rewrites(): Promise<{ source: string; destination: string }[]> };
  export default config;
}
