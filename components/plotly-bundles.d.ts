// plotly.js's own partial bundles (UMD, no types of their own): loaded by components/plotly-client.ts.
declare module 'plotly.js/dist/plotly-basic.min.js';
declare module 'plotly.js/dist/plotly-cartesian.min.js';
