export { sampleFrames } from './frames.js';
export { ABLATION_OPTIONS, ablationId, ablationValue, groupByAblation, type AblationGroups, type AblationOption, type AblationSetting } from './groups.js';
