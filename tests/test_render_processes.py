"""Pictures drawn in worker processes are the same pictures, and the pool can be switched off."""
import rendering
from rendering.roll import render_dice_row


async def test_a_picture_drawn_in_a_process_is_byte_identical():
    local = await rendering.render_async(render_dice_row, [1, 2, 6], 6, "Roll")
    rendering.use_processes(1)
    try:
        remote = await rendering.render_async(render_dice_row, [1, 2, 6], 6, "Roll")
    finally:
        rendering.shutdown_processes()
    assert remote.png == local.png and remote.alt == local.alt
    assert rendering.picture._pool is None


async def test_the_same_view_is_drawn_once(monkeypatch):
    calls = []

    def counted(values):
        calls.append(values)
        return render_dice_row(values, 6, "Roll")

    first = await rendering.render_async(counted, [3, 4])
    again = await rendering.render_async(counted, [3, 4])
    other = await rendering.render_async(counted, [3, 5])
    assert calls == [[3, 4], [3, 5]]
    assert again is first and other.png != first.png
