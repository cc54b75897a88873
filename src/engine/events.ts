// The engine's events and counts are contracts its consumers (CLI, web app) share: they live in core.
export type { RunEvent, RunSummary, StopReason } from '../core/run-event.js';
