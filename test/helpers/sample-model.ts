/**
 * A small, valid, hand-made ContentModel for unit tests of the index and the app (no files, no loader):
 * two courses (one live with two lessons, one soon), one changelog entry that deprecates a route, a roadmap.
 */
import { NO_ALIASES, type ContentModel } from '../../src/content/model.js';
import type { Course, Lesson } from '../../src/schemas/types.generated.js';

const lesson = (id: string, classId: string, steps: number): Lesson => ({
  id,
  course_id: 'python-basics',
  class_id: classId,
  title: `Lesson ${id}`,
  blurb: id === 'py-two' ? null : `About ${id}.`,
  lang: 'python',
  steps,
});

/** A course with one class and two lessons. */
export const PYTHON_BASICS: Course = {
  id: 'python-basics',
  title: 'Python basics',
  tagline: 'Start here',
  blurb: null,
  color: '#3366cc',
  status: 'live',
  classes: [
    {
      id: 'first-steps',
      course_id: 'python-basics',
      name: 'First steps',
      blurb: 'Values and names.',
      status: 'live',
      lessons: [lesson('py-one', 'first-steps', 3), lesson('py-two', 'first-steps', 4)],
      lessons_live: 2,
      lessons_total: 3,
      exercises: 7,
      soon: ['Loops'],
    },
  ],
  classes_total: 1,
  classes_live: 1,
  lessons_live: 2,
};

/** A course announced but not startable. */
export const RUST_SOON: Course = {
  id: 'rust-soon',
  title: 'Rust',
  tagline: null,
  blurb: 'Coming later.',
  color: '#aa5500',
  status: 'soon',
  classes: [],
  classes_total: 0,
  classes_live: 0,
  lessons_live: 0,
};

/**
 * The model. `deprecates` on the changelog entry puts deprecation headers on `/v1/roadmap`
 * (entry date 2026-01-15, sunset 2026-06-30) unless `withDeprecation` is false.
 */
export function sampleModel(opts: { revision?: string; withDeprecation?: boolean; courseTitle?: string } = {}): ContentModel {
  return {
    revision: opts.revision ?? 'sha256:0001',
    catalog: { courses: [{ ...PYTHON_BASICS, title: opts.courseTitle ?? PYTHON_BASICS.title }, RUST_SOON] },
    changelog: {
      entries: [
        {
          id: 'roadmap-moves',
          date: '2026-01-15',
          kind: 'feature',
          title: 'The roadmap moves',
          blurb: 'Read it from the page.',
          body: 'The JSON roadmap is deprecated.',
          deprecates: opts.withDeprecation === false ? [] : [{ path: '/v1/roadmap', sunset: '2026-06-30' }],
        },
      ],
    },
    roadmap: {
      stages: [
        {
          key: 'building',
          label: 'Building',
          note: 'In progress.',
          items: [{ id: 'quizzes', title: 'Quizzes', theme: 'learning', stage: 'building', body: 'Short quizzes.' }],
        },
      ],
    },
    aliases: NO_ALIASES,
  };
}
