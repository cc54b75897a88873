import { NoSuchPluginError, type JsonObject, type Scorer, type TestDefinition } from '../core/index.js';

/** Builds a scorer from its recorded arguments. */
export type ScorerFactory = (args: JsonObject) => Scorer;

/**
 * Scorers by name. A stored score keeps `{name, version, args}`, so `paideia rescore` rebuilds the
 * same scorer from the registry and scores stored answers again without calling a model.
 */
export class ScorerRegistry {
  private readonly factories = new Map<string, ScorerFactory>();

  register(name: string, factory: ScorerFactory): this {
    if (this.factories.has(name)) throw new Error(`scorer "${name}" is registered twice`);
    this.factories.set(name, factory);
    return this;
  }

  create(name: string, args: JsonObject = {}): Scorer {
    const factory = this.factories.get(name);
    if (!factory) throw new NoSuchPluginError('scorer', name, [...this.factories.keys()]);
    return factory(args);
  }

  /** The scorers a test asks for, built once per run. */
  forTests(tests: Iterable<TestDefinition>): Map<string, Scorer[]> {
    const out = new Map<string, Scorer[]>();
    for (const t of tests) out.set(t.name, t.scorers.map(s => this.create(s.name, s.args ?? {})));
    return out;
  }

  names(): string[] {
    return [...this.factories.keys()].sort();
  }
}
