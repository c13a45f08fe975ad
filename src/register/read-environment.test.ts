import { expect, test } from 'vitest';
import { readRegisterEnvironment } from './read-environment.js';

const base = { HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: 'scenarios.yaml' };

test('HARNESS_ALLOWED_HOSTS and HARNESS_ALLOW_CROSS_SITE become the control option; unset, there is none', () => {
  expect(readRegisterEnvironment(base)?.control).toBeUndefined();
  expect(readRegisterEnvironment({ ...base, HARNESS_ALLOWED_HOSTS: 'app, app.internal,' })?.control).toEqual({ allowedHosts: ['app', 'app.internal'] });
  expect(readRegisterEnvironment({ ...base, HARNESS_ALLOWED_HOSTS: '*' })?.control).toEqual({ allowedHosts: '*' });
  expect(readRegisterEnvironment({ ...base, HARNESS_ALLOW_CROSS_SITE: 'true' })?.control).toEqual({ allowCrossSite: true });
  expect(readRegisterEnvironment({ ...base, HARNESS_ALLOW_CROSS_SITE: 'false' })?.control).toBeUndefined();
});

test('a URL in HARNESS_ALLOWED_HOSTS or another word in HARNESS_ALLOW_CROSS_SITE stops register with the variable named', () => {
  expect(() => readRegisterEnvironment({ ...base, HARNESS_ALLOWED_HOSTS: 'http://app:3000' })).toThrow('HARNESS_ALLOWED_HOSTS holds "http://app:3000": expected host names');
  expect(() => readRegisterEnvironment({ ...base, HARNESS_ALLOW_CROSS_SITE: 'yes' })).toThrow('HARNESS_ALLOW_CROSS_SITE is "yes": expected "true" or "false".');
});

test('a near miss of the new names is pointed out', () => {
  expect(readRegisterEnvironment({ ...base, HARNESS_ALLOWED_HOST: 'app' })?.notes).toEqual(['HARNESS_ALLOWED_HOST is not a setting of scenario-harness/register; did you mean HARNESS_ALLOWED_HOSTS?']);
});

test('HARNESS_SESSION_PORT chooses the session host port; unset, any free one', () => {
  expect(readRegisterEnvironment(base)?.sessionPort).toBeUndefined();
  expect(readRegisterEnvironment({ ...base, HARNESS_SESSION_PORT: '47100' })?.sessionPort).toBe(47100);
  expect(readRegisterEnvironment({ ...base, HARNESS_SESSION_PORT: ' 65535 ' })?.sessionPort).toBe(65535);
});

test('a HARNESS_SESSION_PORT that is not a port stops register, naming the variable and what it takes', () => {
  for (const given of ['0', '65536', 'abc', '-1', '47100-47200', '1e3', '']) {
    expect(() => readRegisterEnvironment({ ...base, HARNESS_SESSION_PORT: given })).toThrow(`HARNESS_SESSION_PORT is ${JSON.stringify(given)}: expected the loopback port (1 to 65535) the first process serves the test sessions on to the processes it starts, e.g. HARNESS_SESSION_PORT=47100; unset it to take any free port.`);
  }
  expect(readRegisterEnvironment({ ...base, HARNESS_SESSION_PROT: '1' })?.notes).toEqual(['HARNESS_SESSION_PROT is not a setting of scenario-harness/register; did you mean HARNESS_SESSION_PORT?']);
});
