// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      'test-output/',
      'bench/out/',
      'node_modules/',
      'src/schemas/types.generated.ts',
      'src/content/*.generated.js',
      'src/content/*.generated.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.cjs', 'bin/*.js', 'bench/*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Tests walk untyped documents (the OpenAPI document, parsed Atom XML, JSON bodies) on purpose: the shape is what
    // they check. Production code keeps every no-unsafe-* rule.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Test doubles implement async interfaces with immediate answers.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Several validators match control characters on purpose (C0 controls in headers, ids, terminal output).
  { rules: { 'no-control-regex': 'off' } },
  // Plain JavaScript (entry points, configuration) runs on Node and carries no types to check against.
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: globals.node } },
  // CommonJS configuration files (module.exports).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  prettier,
);
