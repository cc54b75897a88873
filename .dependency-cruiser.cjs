// Imports point one way (design.md, "One engine"): a folder of src/ imports only core/ and folders
// of a lower layer, never one of its own layer or above. Tests may reach across (a test of the
// engine drives it with a suite's step kind); src/index.ts and src/runs.ts sit above every folder.
const LAYERS = [
  ['core'],
  ['providers', 'metrics', 'stats'],
  ['scoring'],
  ['store'],
  ['engine'],
  ['suites', 'scenarios', 'learning', 'validity'],
  ['report'],
  // The CLI's `serve` starts the web app; the web app never imports the CLI.
  ['web'],
  ['cli'],
];

const NOT_PRODUCTION = '(\\.test\\.ts|\\.test-d\\.ts|\\.case\\.ts)$|/testing/|/__fixtures__/';

const forbidden = LAYERS.flatMap((layer, rank) =>
  layer.map(folder => {
    const higherOrSame = LAYERS.slice(rank).flat().filter(other => other !== folder);
    return {
      name: `layer-${folder}`,
      comment: `${folder}/ may import only ${LAYERS.slice(0, rank).flat().join(', ') || 'itself'} (design.md: imports point one way)`,
      severity: 'error',
      from: { path: `^src/${folder}/`, pathNot: NOT_PRODUCTION },
      to: { path: `^src/(${higherOrSame.join('|')})/` },
    };
  }),
);

module.exports = {
  forbidden: [
    ...forbidden,
    {
      name: 'no-circular',
      comment: 'No module may import itself through others.',
      severity: 'error',
      from: { pathNot: NOT_PRODUCTION },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(dist|node_modules)/' },
  },
};
