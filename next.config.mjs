/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // scripts/serve.mjs compresses (a fast level for data answers); Next's own gzip would come first.
  compress: false,
  // The API answers /v2/plots and /v2/plots/ alike (the contract): no 308 redirect on trailing slashes.
  skipTrailingSlashRedirect: true,
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'plotly.js', 'playwright-core'],
  // The proxy (pages, and API paths holding '%') buffers request bodies up to this size: above the
  // API's own limits (10 MiB plots, 256 MiB grid columns), which answer 413 themselves.
  experimental: {
    proxyClientMaxBodySize: '257mb',
    // The chart editor's expert view sends a figure (at most 1 MiB stored, more as indented text) to be checked.
    serverActions: { bodySizeLimit: '5mb' },
  },
  async headers() {
    // Every response, API included. Pages also get a per-request CSP and frame rules (proxy.ts).
    return [
      {
        source: '/(.*)',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
        ],
      },
    ];
  },
  async rewrites() {
    // Chart Studio's public URL forms (/~owner/n/, .embed, .png, .json) onto internal routes.
    return [
      { source: '/~:owner/:n(\\d+).embed', destination: '/files/:owner/:n/embed' },
      // The forms a presentation's Plotly child may name (the client's `/embed`, and the Python client's
      // presentations' `.embed` after the page URL's slash).
      { source: '/~:owner/:n(\\d+)/embed', destination: '/files/:owner/:n/embed' },
      { source: '/~:owner/:n(\\d+)/.embed', destination: '/files/:owner/:n/embed' },
      { source: '/~:owner/:n(\\d+).png', destination: '/files/:owner/:n/image' },
      { source: '/~:owner/:n(\\d+).json', destination: '/files/:owner/:n/json' },
      { source: '/~:owner/:n(\\d+).csv', destination: '/files/:owner/:n/csv' },
      { source: '/~:owner/:n(\\d+)/edit', destination: '/files/:owner/:n/edit' },
      { source: '/~:owner/:n(\\d+)/data-table', destination: '/files/:owner/:n/data-table' },
      { source: '/~:owner/:n(\\d+)/history', destination: '/files/:owner/:n/history' },
      { source: '/~:owner/:n(\\d+)/view', destination: '/files/:owner/:n/view' },
      { source: '/~:owner/:n(\\d+)/people', destination: '/files/:owner/:n/people' },
      { source: '/~:owner/:n(\\d+)/slides', destination: '/files/:owner/:n/slides' },
      { source: '/~:owner/:n(\\d+)/history/:v(\\d+)', destination: '/files/:owner/:n/history/:v' },
      { source: '/~:owner/:n(\\d+)', destination: '/files/:owner/:n' },
      { source: '/~:owner/:n(\\d+)/', destination: '/files/:owner/:n' },
      // Chart Studio's page URL with the plot's name after its number (lib/shared/urls.ts fileAddress).
      { source: '/~:owner/:n(\\d+)/:name([A-Za-z0-9_~-][A-Za-z0-9_.~-]*)', destination: '/files/:owner/:n' },
      { source: '/~:owner/:n(\\d+)/:name([A-Za-z0-9_~-][A-Za-z0-9_.~-]*)/', destination: '/files/:owner/:n' },
      { source: '/~:owner', destination: '/users/:owner' },
      { source: '/~:owner/', destination: '/users/:owner' },
    ];
  },
};

export default nextConfig;
