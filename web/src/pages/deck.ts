import { h, link, num, pct, table } from '../dom.js';
import type { DeckView } from '../types.js';

/**
 * A learning run's deck on its trial page: the slides as the stored PNGs (served by the blob
 * route, which opens only this run's slides), beside the judges' D1/D2 judgments with reasons
 * and each learner's answers, marked right or wrong.
 */
export function deckSection(runId: string, d: DeckView, currentTrial: string): HTMLElement {
  const run = encodeURIComponent(runId);
  const slides = d.status === 'ok'
    ? d.slides.map(s => h('figure', { class: 'slide' },
      s.png ? h('img', { src: `/api/runs/${run}/blobs/${encodeURIComponent(s.png)}`, alt: `Slide ${s.index}: ${s.text.slice(0, 300)}`, width: 480, height: 270, loading: 'lazy' }) : h('pre', {}, s.text),
      h('figcaption', {}, `Slide ${s.index}`)))
    : [h('p', { class: 'bad' }, `The deck was rejected (${d.rejected?.reason ?? ''}): ${d.rejected?.message ?? ''}`)];
  return h('section', { class: 'deck', 'aria-labelledby': 'deck-h' },
    h('h2', { id: 'deck-h' }, `Deck for ${d.unit} by ${d.generator.alias}`),
    d.trialId === currentTrial ? null : h('p', {}, link(`/runs/${run}/trials/${encodeURIComponent(d.trialId)}`, 'the trial that generated this deck')),
    h('div', { class: 'deck-grid' },
      h('div', { class: 'slides' }, ...slides),
      h('div', {},
        table('Judgments of the deck (D1, D2)', ['Judge', 'Dimension', 'Repeat', 'Value', 'Sub-dimensions', 'Reason'],
          d.judgments.map(j => [j.judge, j.dimension.toUpperCase(), j.repeat + 1, j.value === null ? 'unscored' : num(j.value, 2),
            Object.entries(j.fields).map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', '), j.reason ?? '']), { class: 'deck-judgments' }),
        h('h3', {}, 'Learner answers'),
        ...d.learners.map(l => h('article', { class: 'learner' },
          h('h4', {}, `${l.learner} `, link(`/runs/${run}/trials/${encodeURIComponent(l.trialId)}`, 'trial'),
            `: pre ${pct(l.scores.pretest)}, post ${pct(l.scores.posttest)}, near ${pct(l.scores.near)}, far ${pct(l.scores.far)}`),
          h('p', { class: 'muted' }, `context ${l.puzzleContext ? 'on' : 'off'}, frames ${l.frames}`),
          table(`Answers of ${l.learner}`, ['Phase', 'Item', 'Answer', 'Mark'], l.answers.map(a => [
            a.phase, a.prompt, a.answer ?? h('em', {}, a.reason ?? 'no answer'), h('span', { class: a.correct ? 'ok' : 'bad' }, a.correct ? 'right' : 'wrong')]),
          { class: 'answers' }))))));
}
