/**
 * The deployment of one scale test file (test/scale/cluster.ts): `const cluster = useCluster()` at the top starts
 * Redis, the instances and the round-robin proxy before the file's tests and stops them after; until then reading it
 * throws. Kept apart from cluster.ts, which the bench imports without vitest.
 */
import { afterAll, beforeAll } from "vitest";
import { startCluster, type Cluster } from "./cluster.ts";

class FileCluster implements Cluster {
  started: Cluster | undefined;
  private get up(): Cluster {
    if (!this.started) throw new Error("the cluster is not started (useCluster's beforeAll has not run)");
    return this.started;
  }
  get redis() {
    return this.up.redis;
  }
  get instances() {
    return this.up.instances;
  }
  get proxy() {
    return this.up.proxy;
  }
  stop(): Promise<void> {
    return this.started?.stop() ?? Promise.resolve();
  }
}

export function useCluster(count = 3, env: Record<string, string> = {}): Cluster {
  const cluster = new FileCluster();
  beforeAll(async () => {
    cluster.started = await startCluster(count, env);
  }, 120_000);
  afterAll(() => cluster.stop());
  return cluster;
}

/** The text of a tool result's first content block. */
export const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;
