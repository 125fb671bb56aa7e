// Loaded with `node --import` into a measured child: at exit it writes the process's peak resident
// memory (getrusage ru_maxrss: the whole process, every thread included) to $BENCH_PEAK_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    // CPU time (every thread) is steadier than wall time on a loaded machine.
    writeFileSync(
      file,
      JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }),
    );
  });
}
