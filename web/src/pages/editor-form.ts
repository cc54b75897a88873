import { h } from '../dom.js';
import {
  appendTo, button, freshName, jsAt, keysAt, numberField, removeAt, renameKey, selectField, setAt, textField, valueAt, type Binding,
} from './editor-fields.js';
import { tasksEditor } from './editor-tasks.js';

const ROLES = ['system', 'user', 'assistant'];
const FIELD_TYPES = ['int', 'float', 'bool', 'str', 'dict'];

/** The scenario as a form: models, agents with their prompts, the task grid, directions and the rubric. */
export function scenarioForm(b: Binding): HTMLElement {
  return h('div', { class: 'scenario-form' }, modelsPart(b), agentsPart(b), tasksEditor(b), directionsPart(b), rubricPart(b));
}

function part(id: string, title: string, ...children: Array<Node | null>): HTMLElement {
  return h('fieldset', { class: 'form-part', 'aria-labelledby': id }, h('legend', { id }, title), ...children);
}

function modelsPart(b: Binding): HTMLElement {
  const aliases = keysAt(b, ['models']);
  return part('form-models', 'Models',
    h('table', { class: 'form-table' },
      h('thead', {}, h('tr', {}, ...['Alias', 'Type', 'Model', ''].map(c => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, ...aliases.map(alias => h('tr', {},
        h('td', {}, aliasInput(b, alias)),
        h('td', {}, textField(b, `Model ${alias}: type`, ['models', alias, 'type'], { bare: true })),
        h('td', {}, textField(b, `Model ${alias}: model`, ['models', alias, 'model'], { bare: true })),
        h('td', {}, button(`Remove model ${alias}`, () => { b.doc.deleteIn(['models', alias]); b.changed(true); }, 'linkish')))))),
    button('Add model', () => setAt(b, ['models', freshName('model', aliases)], { type: 'openai', model: 'gpt-4.1-mini' }, true)));
}

function aliasInput(b: Binding, alias: string): HTMLInputElement {
  // A rename is written when the field is left, so each keystroke does not make a new key.
  const input = h('input', { type: 'text', 'aria-label': `Model ${alias}: alias`, onchange: e => renameModel(b, alias, (e.target as HTMLInputElement).value.trim()) });
  input.value = alias;
  return input;
}

/**
 * Rename a model and every place the scenario names it by alias (each agent's model, the judge
 * of the evaluation and its panel), so a rename in the form leaves a scenario that still validates.
 */
function renameModel(b: Binding, from: string, to: string): void {
  if (!to || from === to || keysAt(b, ['models']).includes(to)) return;
  for (const agent of keysAt(b, ['agents'])) if (valueAt(b, ['agents', agent, 'model']) === from) b.doc.setIn(['agents', agent, 'model'], to);
  if (valueAt(b, ['evaluation', 'model']) === from) b.doc.setIn(['evaluation', 'model'], to);
  const panel = (jsAt(b, ['evaluation', 'judges', 'models']) as unknown[] | undefined) ?? [];
  panel.forEach((m, i) => { if (m === from) b.doc.setIn(['evaluation', 'judges', 'models', i], to); });
  renameKey(b, ['models'], from, to);
}

function agentsPart(b: Binding): HTMLElement {
  const names = keysAt(b, ['agents']);
  const models = ['', ...keysAt(b, ['models'])];
  return part('form-agents', 'Agents and prompts',
    ...names.map(name => {
      const prompt = (jsAt(b, ['agents', name, 'prompt']) as unknown[] | undefined) ?? [];
      return h('div', { class: 'agent' },
        h('h4', {}, `Agent ${name}`),
        h('label', { class: 'field' }, `Agent ${name}: model`, selectField(b, `Agent ${name}: model`, ['agents', name, 'model'], models)),
        ...prompt.map((_, i) => h('div', { class: 'message' },
          selectField(b, `Agent ${name}, message ${i + 1}: role`, ['agents', name, 'prompt', i, 'role'], ROLES),
          textField(b, `Agent ${name}, message ${i + 1}: content`, ['agents', name, 'prompt', i, 'content'], { multiline: true, bare: true }),
          button(`Remove message ${i + 1} of ${name}`, () => removeAt(b, ['agents', name, 'prompt'], i), 'linkish'))),
        button(`Add message to ${name}`, () => appendTo(b, ['agents', name, 'prompt'], { role: 'user', content: '' })),
        button(`Remove agent ${name}`, () => { b.doc.deleteIn(['agents', name]); b.changed(true); }, 'danger'));
    }),
    button('Add agent', () => setAt(b, ['agents', freshName('agent', names)], { model: models[1] ?? null, prompt: [{ role: 'system', content: '' }] }, true)));
}

function directionsPart(b: Binding): HTMLElement {
  const directions = (jsAt(b, ['directions']) as unknown[] | undefined) ?? [];
  return part('form-directions', 'Directions (the graph above follows them)',
    h('ol', { class: 'directions' }, ...directions.map((d, i) => h('li', {},
      typeof d === 'string'
        ? textField(b, `Direction ${i + 1} (FROM -> TO)`, ['directions', i], { bare: true })
        : h('code', {}, `${JSON.stringify(d)} (a router: edit it in the YAML)`),
      button(`Remove direction ${i + 1}`, () => removeAt(b, ['directions'], i), 'linkish')))),
    button('Add direction', () => appendTo(b, ['directions'], 'START -> END')));
}

function rubricPart(b: Binding): HTMLElement {
  const fields = (jsAt(b, ['evaluation', 'format']) as unknown[] | undefined) ?? [];
  if (valueAt(b, ['evaluation']) === undefined) return part('form-rubric', 'Rubric', h('p', { class: 'muted' }, 'No evaluation in this scenario: add one in the YAML.'));
  const at = (i: number, key: string) => ['evaluation', 'format', i, key];
  return part('form-rubric', 'Rubric (the judge\'s fields)',
    h('table', { class: 'form-table' },
      h('thead', {}, h('tr', {}, ...['Field', 'Type', 'Min', 'Max', 'Dimension', 'Weight', 'Description', ''].map(c => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, ...fields.map((_, i) => {
        const name = String(valueAt(b, at(i, 'field')) ?? i + 1);
        return h('tr', {},
          h('td', {}, textField(b, `Rubric field ${i + 1}: name`, at(i, 'field'), { bare: true })),
          h('td', {}, selectField(b, `Rubric field ${name}: type`, at(i, 'type'), FIELD_TYPES)),
          h('td', {}, numberField(b, `Rubric field ${name}: min`, at(i, 'min'))),
          h('td', {}, numberField(b, `Rubric field ${name}: max`, at(i, 'max'))),
          h('td', {}, textField(b, `Rubric field ${name}: dimension`, at(i, 'dimension'), { bare: true })),
          h('td', {}, numberField(b, `Rubric field ${name}: weight`, at(i, 'weight'))),
          h('td', {}, textField(b, `Rubric field ${name}: description`, at(i, 'description'), { multiline: true, bare: true })),
          h('td', {}, button(`Remove rubric field ${name}`, () => removeAt(b, ['evaluation', 'format'], i), 'linkish')));
      }))),
    button('Add rubric field', () => appendTo(b, ['evaluation', 'format'], { field: `criterion_${fields.length + 1}`, type: 'int', min: 1, max: 5, dimension: 'New dimension', weight: 0.1 })));
}
