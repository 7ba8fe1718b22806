/**
 * docs/model.md §4b: the EPL one-sided fair price, fitted on 2024-25 and tested held out on 2025-26
 * (scripts/research/epl-one-sided.mjs over ../shared/history; deterministic, ~7 s). Its gate decides
 * which soccer markets may carry a letter above C, so the table in the doc must be the script's.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const blocks = [
  {
    name: 'epl-one-sided',
    slow: true,
    about: 'docs/model.md §4b: the one-sided de-vig held-out test per market and the 2024-25 fit (scripts/research/epl-one-sided.mjs --markdown)',
    render: async (ctx) => {
      const history = join(ctx.root, '..', 'shared', 'history');
      if (!existsSync(history)) throw new Error(`the EPL one-sided test reads ${history} (../shared), which is missing`);
      const table = ctx.script('scripts/research/epl-one-sided.mjs', ['--history', history, '--markdown']).trim();
      return `\n${table}\n`;
    },
  },
];
