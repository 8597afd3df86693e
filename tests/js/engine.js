// The engine's positions and answers (tests/web/engine_positions.py), for the tests that hold
// the client's rules to the engine: the file SPIDER_ENGINE_POSITIONS names (pytest writes it,
// tests/web/test_client_rules.py), else a fresh export by the project's Python.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @typedef {{hidden: number, cards: string[]}} Column
 * @typedef {{suits: number, columns: Column[], deals_left: number, removed_suits: string[],
 *   deal_over_gap: boolean, actions: number, version: number, score: number}} View
 * @typedef {{game: View, moves: [number, number, number][], can_deal: boolean,
 *   lift: number[], onetap: ([number, number] | null)[][]}} Position
 * @returns {Position[]}
 */
export function enginePositions() {
  let file = process.env.SPIDER_ENGINE_POSITIONS;
  let dir = null;
  if (!file) {
    const venv = path.join(ROOT, '.venv', 'bin', 'python');
    const python = process.env.PYTHON || (existsSync(venv) ? venv : 'python3');
    dir = mkdtempSync(path.join(tmpdir(), 'spider-positions-'));
    file = path.join(dir, 'positions.json');
    execFileSync(python, ['-m', 'tests.web.engine_positions', file], { cwd: ROOT });
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')).positions;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
