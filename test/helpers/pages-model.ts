/**
 * A hand-made, valid ContentModel for the page renderers' unit tests: three courses (a live one with a live and
 * a soon class, a live one in a pale colour that needs contrast help, a soon one), changelog entries over two
 * months with Markdown, an ampersand, a deprecation and a hostile raw-HTML attempt, and all four roadmap stages.
 */
import { NO_ALIASES, type ContentModel } from '../../src/content/model.js';
import type { Course, Lesson } from '../../src/schemas/types.generated.js';

const lesson = (course: string, klass: string, id: string, title: string, lang: string, steps: number, blurb: string | null): Lesson => ({
  id,
  course_id: course,
  class_id: klass,
  title,
  blurb,
  lang,
  steps,
});

const PYTHON: Course = {
  id: 'python-foundations',
  title: 'Python foundations',
  tagline: 'From your first variable to reading files.',
  blurb: 'A first programming course in Python 3: values, names, collections and functions.',
  color: '#3572a5',
  status: 'live',
  classes: [
    {
      id: 'basics',
      course_id: 'python-foundations',
      name: 'The basics',
      blurb: 'Values, names, text & numbers.',
      status: 'live',
      lessons: [
        lesson('python-foundations', 'basics', 'py-values', 'Values and types', 'python', 4, 'What a value is, and how Python tells them apart.'),
        lesson('python-foundations', 'basics', 'py-numbers', 'Numbers <and> arithmetic', 'python', 1, null),
      ],
      lessons_live: 2,
      lessons_total: 3,
      exercises: 5,
      soon: ['Reading input with input()'],
    },
    {
      id: 'objects',
      course_id: 'python-foundations',
      name: 'Objects',
      blurb: null,
      status: 'soon',
      lessons: [],
      lessons_live: 0,
      lessons_total: 2,
      exercises: 0,
      soon: ['Classes', 'Dataclasses'],
    },
  ],
  classes_total: 2,
  classes_live: 1,
  lessons_live: 2,
};

const SHELL: Course = {
  id: 'the-shell',
  title: 'The shell',
  tagline: null,
  blurb: null,
  color: '#f1e05a',
  status: 'live',
  classes: [
    {
      id: 'navigating',
      course_id: 'the-shell',
      name: 'Finding your way',
      blurb: 'Paths, listing and moving around.',
      status: 'live',
      lessons: [lesson('the-shell', 'navigating', 'sh-paths', 'Paths', 'bash', 3, 'Absolute and relative paths.')],
      lessons_live: 1,
      lessons_total: 1,
      exercises: 3,
      soon: [],
    },
  ],
  classes_total: 1,
  classes_live: 1,
  lessons_live: 1,
};

const RUST: Course = {
  id: 'rust-from-scratch',
  title: 'Rust from scratch',
  tagline: 'Ownership without tears.',
  blurb: 'Announced: a first course in Rust.',
  color: '#dea584',
  status: 'soon',
  classes: [
    {
      id: 'ownership',
      course_id: 'rust-from-scratch',
      name: 'Ownership',
      blurb: 'Moves, borrows and lifetimes.',
      status: 'soon',
      lessons: [],
      lessons_live: 0,
      lessons_total: 1,
      exercises: 0,
      soon: ['Borrowing'],
    },
  ],
  classes_total: 1,
  classes_live: 0,
  lessons_live: 0,
};

/** The fixture model; `revision` is a fixed digest. */
export function pagesModel(): ContentModel {
  return {
    revision: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    catalog: { courses: [PYTHON, SHELL, RUST] },
    changelog: {
      entries: [
        {
          id: 'shell-course-2026-03-02',
          date: '2026-03-02',
          kind: 'course',
          title: 'The shell & you',
          blurb: 'A new course on the command line.',
          body: 'Learn `ls`, `cd` and *pipes*; see [the course](/courses/the-shell). <script>alert(1)</script>',
          deprecates: [],
        },
        {
          id: 'roadmap-json-2026-03-01',
          date: '2026-03-01',
          kind: 'feature',
          title: 'Roadmap data moves',
          blurb: 'The roadmap route changes.',
          body: 'The old route is **deprecated**. ![tracker](https://tracker.example/pixel.png)',
          deprecates: [{ path: '/v1/roadmap', sunset: '2026-06-30' }],
        },
        {
          id: 'py-values-2026-02-10',
          date: '2026-02-10',
          kind: 'lesson',
          title: 'Values and types',
          blurb: 'A new first lesson.',
          body: 'Start with values.',
          deprecates: [],
        },
      ],
    },
    roadmap: {
      stages: [
        {
          key: 'shipped',
          label: 'Shipped',
          note: 'Live now.',
          items: [
            {
              id: 'shell',
              title: 'A shell course',
              theme: 'courses',
              stage: 'shipped',
              body: 'Bash for everyone.',
              shipped: 'shell-course-2026-03-02',
            },
          ],
        },
        {
          key: 'building',
          label: 'Building',
          note: 'In progress.',
          items: [{ id: 'quizzes', title: 'Quizzes', theme: 'learning', stage: 'building', body: 'Short *quizzes* after each class.' }],
        },
        {
          key: 'next',
          label: 'Next',
          note: 'Planned.',
          items: [{ id: 'rust', title: 'Rust course', theme: 'courses', stage: 'next', body: 'Ownership first.' }],
        },
        {
          key: 'exploring',
          label: 'Exploring',
          note: 'Ideas.',
          items: [{ id: 'offline', title: 'Offline mode', theme: 'platform', stage: 'exploring', body: 'Lessons without a network.' }],
        },
      ],
    },
    aliases: NO_ALIASES,
  };
}
