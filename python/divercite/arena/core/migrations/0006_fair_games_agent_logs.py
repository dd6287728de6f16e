# Written for issue 57 (games lost to a busy worker played again; each agent's log kept with
# its game), as makemigrations would.

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('arena', '0005_staff'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='replay_of',
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL,
                                    related_name='replays', to='arena.game'),
        ),
        migrations.AddField(
            model_name='game',
            name='log1',
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name='game',
            name='log2',
            field=models.TextField(blank=True),
        ),
    ]
