import { promises as fs } from 'node:fs';
import { describeCommandResult } from '../command';
import { ToolError, type Tool } from '../runner';
import { str, obj, def, s, type BuiltinKit } from './kit';

/** Command output kept for the model. */
export const MAX_COMMAND_OUTPUT_BYTES = 64 * 1024;

/** Line the run_command approval shows: checkpoints record file tools only (see ./checkpoints). */
export const COMMAND_NOT_RESTORABLE =
  'A command\'s effects are not recorded in checkpoints: "Restore files to before this answer" cannot undo them.';

/** The built-in tool run_command: its definition (what the model is told) and what a call does. */
export function runCommand({ host, resolve }: BuiltinKit): Tool {
  return {
    readOnly: false,
    preview: 'command',
    definition: def(
      'run_command',
      'Run a shell command in a workspace folder and return its output (cut at 64 KB) and exit code. The user sees the full command and must approve it. The command is stopped after the time limit.',
      obj(
        {
          command: str('The command line, run by the system shell.'),
          cwd: str('Folder relative to the workspace to run in (default: the workspace folder).'),
        },
        ['command'],
      ),
    ),
    async prepare(a) {
      const command = s(a['command']);
      if (command.trim() === '') throw new ToolError('The command is empty.');
      const cwdArg = s(a['cwd']).trim();
      const dir = await resolve(cwdArg === '' ? '.' : cwdArg);
      if (!dir.exists || !(await fs.stat(dir.absolute)).isDirectory())
        throw new ToolError(`The folder "${cwdArg}" does not exist.`);
      const timeoutMs = host.commandTimeoutMs();
      return {
        summary: `Run in ${dir.relative || dir.root.name}:\n${command}\n\n${COMMAND_NOT_RESTORABLE}`,
        run: async (ctx) => {
          // The folder may have become a link out of the workspace while awaiting approval.
          const cwd = await resolve(dir.absolute);
          const r = await host.runCommand(command, {
            cwd: cwd.absolute,
            timeoutMs,
            maxOutputBytes: MAX_COMMAND_OUTPUT_BYTES,
            signal: ctx.signal,
          });
          return {
            content: describeCommandResult(command, r, timeoutMs),
            preview: r.output.slice(-4000) || '(no output)',
          };
        },
      };
    },
  };
}
