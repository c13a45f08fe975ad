// A server component: its fetch runs as the test that asked for the page, with nothing forwarded by hand.
export default async function Profile({ params }: { params: Promise<{ login: string }> }) {
  const { login } = await params;
  const response = await fetch(`https://api.github.com/users/${login}`);
  if (!response.ok) return <p id="error">{`GitHub answered ${response.status}`}</p>;
  const user = (await response.json()) as { login: string; followers: number };
  return <p id="profile">{`${user.login} has ${user.followers} followers`}</p>;
}
