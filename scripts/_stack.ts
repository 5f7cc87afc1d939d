import { chromium } from 'playwright-core';
import { plotlyBrowserScript } from '@/lib/core/plotly-assets';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
await page.setContent('<div id="g" style="width:700px;height:500px"></div>');
await page.addScriptTag({ content: await plotlyBrowserScript() });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Debugger.enable');
cdp.on('Debugger.paused', (e: any) => {
  console.log(e.callFrames.slice(0, 12).map((f: any) => `${f.functionName} @${f.location.lineNumber}:${f.location.columnNumber}`).join('\n'));
  void cdp.send('Debugger.resume');
});
const layout = JSON.parse(process.argv[2]);
void page.evaluate((l) => (window as any).Plotly.newPlot('g', [{ type: 'scatter', y: [1, 2, 3] }], l), layout).catch(() => {});
await new Promise((r) => setTimeout(r, 4000));
await cdp.send('Debugger.pause');
await new Promise((r) => setTimeout(r, 1000));
await browser.close();
