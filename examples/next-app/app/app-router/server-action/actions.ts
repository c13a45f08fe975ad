'use server';
import { redirect } from 'next/navigation';
import { fetchGreeting } from '../../../lib/upstream';

/** A server action calls upstream as the test that posted the form. */
export async function greet(): Promise<never> {
  redirect(`/app-router/server-action?greeting=${encodeURIComponent(await fetchGreeting())}`);
}
