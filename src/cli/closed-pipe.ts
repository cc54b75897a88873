/**
 * `paideia report -o - | head` closes stdout early; that is the reader's choice, not a failure, so
 * the command ends quietly (its exit code so far, 0 unless it already failed) instead of printing a
 * stack. A closed stderr (`2>&1 | head`) only drops the progress lines: the run itself goes on.
 */
export function endQuietlyOnClosedPipes(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
