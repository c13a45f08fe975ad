import { greet } from './actions';

export default async function ServerActionPage({ searchParams }: { searchParams: Promise<{ greeting?: string }> }) {
  const { greeting } = await searchParams;
  return (
    <form action={greet}>
      <output id="greeting">{greeting ?? ''}</output>
      <button type="submit">Greet</button>
    </form>
  );
}
