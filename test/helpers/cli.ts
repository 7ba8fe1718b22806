import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/_io.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in-process with captured streams and an explicit environment. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = {}, isTTY = false, seams: Pick<CliIO, 'live'> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    isTTY,
    env,
    ...seams,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
