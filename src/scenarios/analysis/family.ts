import { modelFamily, type ModelFamily } from '../../providers/family.js';

export { FAMILY_TABLE, type FamilyRule, type ModelFamily } from '../../providers/family.js';

/**
 * The family of a scenario model for the self-preference check: the scenario's `family:` key wins,
 * else the shared table (src/providers/family.ts).
 */
export function familyOf(spec: string, explicit?: string): ModelFamily {
  return modelFamily(spec, explicit);
}
