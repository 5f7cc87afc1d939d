import { openDatabase } from '@/db/client';
import { listPlots } from '@/lib/core/plots';
const d = await openDatabase('postgres://postgres@127.0.0.1:5432/pf_scratch');
const url = new URL('http://127.0.0.1:3000/v2/plots');
for (let r = 0; r < 4; r++) {
  const cpu0 = process.cpuUsage(); const t = performance.now(); let n = 0;
  await Promise.all(Array.from({ length: 16 }, async () => { for (let i = 0; i < 150; i++) { await listPlots(d.db, null, {}, 'http://127.0.0.1:3000', url); n++; } }));
  const cpu = process.cpuUsage(cpu0); const wall = performance.now() - t;
  console.log(`${(n / wall * 1000).toFixed(0)} pages/s, node cpu ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/page`);
}
await d.close();
