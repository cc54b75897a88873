/**
 * Changes this server made to a run that leave its record as it was (an expert's scores from a
 * share link): what was made from the run before (its figures) is made again after one.
 */
export class RunEdits {
  private readonly counts = new Map<string, number>();

  touch(runId: string): void {
    this.counts.set(runId, (this.counts.get(runId) ?? 0) + 1);
  }

  /** Goes up with every edit of the run. */
  of(runId: string): number {
    return this.counts.get(runId) ?? 0;
  }
}
