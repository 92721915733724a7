import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { signOut } from '~/http/auth.server'

export async function action({ request }: ActionFunctionArgs) {
  return redirect('/login', { headers: { 'Set-Cookie': await signOut(request) } })
}

export async function loader() {
  return redirect('/')
}
