/** The round-trip bench's rows: what one peer measured at concurrency 1 and 32, the table, ratios, medians. */

export interface Measurement {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU time (user + system) per call of the client process, in µs. */
  readonly clientCpuUs: number;
  /** CPU time per call of the server process (stdio), in µs; null in memory or where /proc is unreadable. */
  readonly serverCpuUs: number | null;
}

export interface Row {
  readonly name: string;
  readonly transport: "memory" | "stdio";
  readonly c1: Measurement;
  readonly c32: Measurement;
}

/** Labels of the revisions the bench compares. */
export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";

export function format(rows: readonly Row[]): string {
  const cpu = (m: Measurement) =>
    `cpu ${m.clientCpuUs.toFixed(1)}${m.serverCpuUs === null ? "" : `+${m.serverCpuUs.toFixed(1)}`} µs`;
  const fmt = (m: Measurement) =>
    `${Math.round(m.callsPerSecond).toString().padStart(7)}/s p50 ${m.p50Ms.toFixed(3)} p99 ${m.p99Ms.toFixed(3)} ms ${cpu(m).padEnd(18)}`;
  return rows.map((r) => `${`${r.transport} ${r.name}`.padEnd(28)} c1 ${fmt(r.c1)} | c32 ${fmt(r.c32)}`).join("\n");
}

export function ratios(rows: readonly Row[]): string {
  const find = (transport: string, name: string) => rows.find((r) => r.transport === transport && r.name === name);
  const lines: string[] = [];
  const ratio = (label: string, a: Row | undefined, b: Row | undefined) => {
    if (!a || !b) return;
    const r = (k: "c1" | "c32") => (a[k].callsPerSecond / b[k].callsPerSecond).toFixed(2);
    // CPU per call of both processes together, the other way round (higher = less CPU than the reference).
    const c = (k: "c1" | "c32") => {
      const total = (m: Measurement) => m.clientCpuUs + (m.serverCpuUs ?? 0);
      return (total(b[k]) / total(a[k])).toFixed(2);
    };
    lines.push(
      `${label.padEnd(48)} c1 ${r("c1").padStart(5)}×  c32 ${r("c32").padStart(5)}×   (cpu/call: c1 ${c("c1")}× c32 ${c("c32")}×)`,
    );
  };
  for (const transport of ["memory", "stdio"] as const) {
    ratio(`${transport}: ours ${LEGACY} / SDK v1`, find(transport, `ours ${LEGACY}`), find(transport, "sdk-v1"));
    ratio(`${transport}: ours ${MODERN} / SDK v1`, find(transport, `ours ${MODERN}`), find(transport, "sdk-v1"));
    ratio(
      `${transport}: ours ${LEGACY} / SDK v2 ${LEGACY}`,
      find(transport, `ours ${LEGACY}`),
      find(transport, `sdk-v2 ${LEGACY}`),
    );
    ratio(
      `${transport}: ours ${MODERN} / SDK v2 ${MODERN}`,
      find(transport, `ours ${MODERN}`),
      find(transport, `sdk-v2 ${MODERN}`),
    );
    ratio(
      `${transport}: ours ${MODERN} / ours ${LEGACY}`,
      find(transport, `ours ${MODERN}`),
      find(transport, `ours ${LEGACY}`),
    );
  }
  ratio(`stdio: ours ${LEGACY} / bare echo`, find("stdio", `ours ${LEGACY}`), find("stdio", "bare echo"));
  ratio(`stdio: ours ${MODERN} / bare echo`, find("stdio", `ours ${MODERN}`), find("stdio", "bare echo"));
  ratio(
    `stdio: ours ${MODERN} / bare echo ${MODERN}`,
    find("stdio", `ours ${MODERN}`),
    find("stdio", `bare echo ${MODERN}`),
  );
  ratio(`stdio: SDK v1 / bare echo`, find("stdio", "sdk-v1"), find("stdio", "bare echo"));
  return lines.join("\n");
}

/** Per concurrency, the measurement of median throughput among the repetitions. */
export function medianRow(reps: readonly Row[]): Row {
  const pick = (k: "c1" | "c32") => {
    const sorted = reps.map((r) => r[k]).sort((x, y) => x.callsPerSecond - y.callsPerSecond);
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  };
  return { ...reps[0]!, c1: pick("c1"), c32: pick("c32") };
}
