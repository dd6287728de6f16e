# Written for issue 55 (a remote worker's fault verdict on a check is played again), as
# makemigrations would.

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('arena', '0003_storage_attempts_logins'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='second_opinion_of',
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL,
                                    related_name='second_opinions', to='arena.game'),
        ),
    ]
